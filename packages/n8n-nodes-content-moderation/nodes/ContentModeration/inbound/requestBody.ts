import type { IWebhookFunctions } from 'n8n-workflow';

/** The media type of a Content-Type header value ("application/json; charset=utf-8" -> "application/json"). */
export function mediaType(value: unknown): string {
	const [type] = String(value ?? '').split(';');
	return type.trim().toLowerCase();
}

/**
 * The body of a callback whatever its content type, for the trigger and Wait for Callback. n8n parses
 * application/json itself (refusing a malformed one with 422); anything else is read from the raw bytes.
 * For a start node above version 1, n8n reads the bytes only for the types it parses (JSON, text, form,
 * XML); for any other type the node reads them with n8n's own `readRawBody()` (docs/callbacks.md).
 * For envelope.ts: n8n's parse of an application/json body (`parsedJson`), else the raw bytes as text.
 */
export async function readCallbackBody(this: IWebhookFunctions): Promise<{ body: unknown; parsedJson: boolean }> {
	const request = this.getRequestObject();
	// n8n's body reader sets contentType; the header is the fallback.
	const contentType = request.contentType ?? mediaType(request.headers['content-type']);
	// A multipart body was already consumed by n8n's form parser: there are no bytes left to read.
	const unread = !Buffer.isBuffer(request.rawBody) && !contentType.startsWith('multipart/');
	if (unread && typeof request.readRawBody === 'function') await request.readRawBody();
	const parsed: unknown = this.getBodyData();
	const raw = Buffer.isBuffer(request.rawBody) ? request.rawBody.toString('utf8') : undefined;

	const parsedByN8n =
		parsed !== undefined && contentType === 'application/json' && (raw === undefined || raw.trim() !== '');
	if (parsedByN8n) return { body: parsed, parsedJson: true };
	return { body: typeof parsed === 'string' ? parsed : (raw ?? ''), parsedJson: false };
}
