/** Image > Moderate, Mode "Wait for Callback": the node's waiting webhook and its handler. */
import type { IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { verdict } from '../moderate.operation';
import { WEBHOOK_PATH } from './urls';
import { handleWaitCallback } from './webhook';

/**
 * A restart webhook: n8n serves it only under a waiting execution's resume URL
 * (`/webhook-waiting/<executionId>/callback`) and never registers it when a workflow is published.
 */
export const waitCallbackWebhook: IWebhookDescription = {
	name: 'default',
	httpMethod: 'POST',
	path: WEBHOOK_PATH,
	restartWebhook: true,
	responseMode: 'onReceived',
	// Empty: n8n then answers with the node's webhookResponse instead of the text "firstEntryJson".
	responseData: '',
};

export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	return await handleWaitCallback.call(this, verdict);
}
