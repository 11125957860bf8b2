/**
 * Publishing the trigger: n8n calls `checkExists` whenever it sets the trigger's webhook up (publishing,
 * an update, n8n starting) and fails publishing with the message of an error thrown there. The service
 * has no API to register a callback, so this is only where a trigger without a usable Callback Secret is
 * refused (inbound/secretRule.ts). The editor's test URL (mode 'manual') is set up without the check.
 */
import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../transport/client';
import {
	ACCEPT_WITHOUT_SECRET,
	isStrongSecret,
	SECRET_REQUIRED_DESCRIPTION,
	secretRequiredMessage,
	secretStanding,
} from '../inbound/secretRule';
import { unregisteredWebhookMethods } from '../helpers/webhookMethods';

async function refuseWithoutSecret(this: IHookFunctions): Promise<boolean> {
	const hasCredential = this.getNode().credentials?.[CREDENTIAL_TYPE] !== undefined;
	const strong = hasCredential ? isStrongSecret(String((await this.getCredentials(CREDENTIAL_TYPE)).callbackSecret ?? '')) : undefined;
	const accept = this.getNodeParameter(`options.${ACCEPT_WITHOUT_SECRET}`, false) === true;
	if (secretStanding(strong, this.getMode() === 'manual', accept) === 'refused') {
		throw new NodeOperationError(this.getNode(), secretRequiredMessage(hasCredential), { description: SECRET_REQUIRED_DESCRIPTION });
	}
	return true;
}

export const triggerWebhookMethods = {
	default: { ...unregisteredWebhookMethods.default, checkExists: refuseWithoutSecret },
};
