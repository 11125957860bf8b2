/**
 * Whether n8n started the execution: its only sign is the answer to the sender (2.x answers once the execution
 * exists, with an error status when it could not), watched where n8n ends the response. e2e case 2 checks it.
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
