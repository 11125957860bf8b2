import type { IHookFunctions } from 'n8n-workflow';

/**
 * Webhook lifecycle for webhooks the service cannot register: the trigger's URL is pasted by the user, and
 * n8n never registers a restart webhook. Nothing to check, create or delete.
 */
export const unregisteredWebhookMethods = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async create(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async delete(this: IHookFunctions): Promise<boolean> {
			return true;
		},
	},
};
