/**
 * Whether n8n started the execution for what the trigger returned. n8n gives a webhook node no signal for
 * it (IWebhookResponseData has none), so this reads n8n's answer to the sender, the one place where n8n's
 * webhook code (webhook-helpers.js executeWebhook, webhook-request-handler.js) can break it unseen; e2e
 * case 2 checks it on every n8n the package supports. n8n 2.x answers an `onReceived` webhook after
 * WorkflowRunner.run created the execution, with an error status when it could not (a database or queue
 * failure); n8n 1.x answers before it creates it, so there a failure after the answer goes unseen.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/**
 * Watched where n8n ends the response: it does so also when the sender has already gone, where no
 * 'finish' event comes.
 */
export async function executionStarted(response: Response): Promise<boolean> {
	if (response.writableEnded) return response.statusCode < 400;
	return await new Promise<boolean>((resolve) => {
		const end = response.end;
		response.end = function (this: Response, ...args: Parameters<Response['end']>) {
			resolve(response.statusCode < 400);
			return end.apply(this, args);
		} as Response['end'];
	});
}
