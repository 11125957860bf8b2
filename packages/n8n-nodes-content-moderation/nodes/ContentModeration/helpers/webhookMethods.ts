const nothingToDo = async (): Promise<boolean> => true;

/**
 * Webhook lifecycle for webhooks the service cannot register: the trigger's URL is pasted by the user, and
 * n8n never registers a restart webhook. Nothing to check, create or delete.
 */
export const unregisteredWebhookMethods = {
	default: { checkExists: nothingToDo, create: nothingToDo, delete: nothingToDo },
};
