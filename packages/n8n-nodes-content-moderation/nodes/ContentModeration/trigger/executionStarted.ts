/**
 * Whether n8n started the execution for what the trigger returned. n8n gives a webhook node no sign of it
 * but its answer to the sender (webhook-helpers.js executeWebhook): n8n 2.x answers an `onReceived` webhook
 * once WorkflowRunner.run created the execution, with an error status when it could not; n8n 1.x answers
 * before it creates it. Watched where n8n ends the response, which it does also when the sender has gone
 * (no 'finish' event then). The one reach into n8n's response: e2e case 2 checks it in every suite (n8n 1.x
 * cannot show an execution that failed to start after the answer).
 */
import type { IWebhookFunctions } from 'n8n-workflow';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

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
