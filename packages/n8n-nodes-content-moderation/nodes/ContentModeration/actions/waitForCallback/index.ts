/** Mode "Wait for Callback" (Image > Moderate and Text > Moderate): the node's waiting webhook. */
import type { IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { getImage, getText } from '../../transport/endpoints';
import { verdict as imageVerdict } from '../image/moderate.operation';
import { verdict as textVerdict } from '../text/moderate.operation';
import { WEBHOOK_PATH } from './urls';
import { handleWaitCallback, type WaitTarget } from './webhook';

/**
 * A restart webhook: n8n serves it only under a waiting execution's resume URL
 * (`/webhook-waiting/<executionId>/callback`) and never registers it when a workflow is published.
 * responseData empty: n8n then answers with the node's webhookResponse instead of the text "firstEntryJson".
 */
export const waitCallbackWebhook: IWebhookDescription = {
	name: 'default',
	httpMethod: 'POST',
	path: WEBHOOK_PATH,
	restartWebhook: true,
	responseMode: 'onReceived',
	responseData: '',
};

const targets: Record<string, WaitTarget> = {
	image: { facts: imageVerdict, read: getImage },
	text: { facts: textVerdict, read: getText },
};

export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const resource = this.getNodeParameter('resource', 'image') as string;
	return await handleWaitCallback.call(this, targets[resource] ?? targets.image);
}
