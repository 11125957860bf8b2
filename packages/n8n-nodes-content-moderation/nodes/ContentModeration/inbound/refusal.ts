/** A callback refused by the node itself: a small JSON error with its status, and nothing started. */
import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** `message` must hold nothing the caller sent unredacted: it is the answer's whole text. */
export function refuse(ctx: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const response = ctx.getResponseObject();
	response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ received: false, error: { status, message } }));
	return { noWebhookResponse: true };
}
