import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { CallbackBody, DataKind, ParsedCallback } from './envelope';
import { kindOf, parseCallback } from './envelope';
import { readCallbackBody } from './requestBody';
import type { ApiClient } from '../transport/client';
import { carriesFullResult, readBack } from './readBack';

export type { CallbackBody, ParsedCallback };

/** The callback body (requestBody.ts) read by the shared rules (envelope.ts `parseCallback`). */
export async function parseCallbackBody(this: IWebhookFunctions): Promise<ParsedCallback> {
	const { body, parsedJson } = await readCallbackBody.call(this);
	return parseCallback(body, parsedJson);
}

export type CompletedResult =
	| {
			result: IDataObject;
			/** Set when the full result was needed but could not be read. */
			error?: IDataObject;
	  }
	/** Read back still unfinished (readBack.ts): not a completion, nothing to pass on yet. */
	| { unfinished: string };

/**
 * Reads the full result through `client` (none: no credential selected or Fetch Full Result off) when the
 * callback misses result fields (readBack.ts): the read result wins over the callback's fields; extra
 * callback fields are kept. Without an id nothing can be read: the callback is passed on as it came, its
 * warning saying so. A review decision (a queue item) is passed on as it came. `distrust` (a call accepted
 * without a Callback Secret): a result is always read, and only its id and warning are taken from the call.
 */
export async function completeResult(
	body: CallbackBody,
	client: ApiClient | undefined,
	kind: DataKind | undefined = kindOf(body),
	repeatNote = '',
	distrust = false,
): Promise<CompletedResult> {
	if (distrust && kind !== 'queueItem') body = { id: body.id, ...(body.warning === undefined ? {} : { warning: body.warning }) };
	const full = kind === 'queueItem' || (!distrust && carriesFullResult(body, kind));
	if (body.id === null) {
		const missing = full ? '' : `, and the result fields it misses could not be read with GET /${kind === 'text' ? 'text' : 'image'}/{id}`;
		return {
			result: {
				...body,
				warning: `${String(body.warning)}, so it cannot be matched to its submission${missing}.${repeatNote} Its fields are as the service sent them.`,
			},
		};
	}
	if (full || client === undefined) return { result: body };

	try {
		const reading = await readBack(client, body.id, kind);
		return reading.done ? { result: { ...body, ...reading.result } } : { unfinished: reading.message };
	} catch (error) {
		// The transport's errors carry the status and the service's message, never a secret.
		const failure = error as { message?: string; httpCode?: string | null; description?: string | null };
		// No answer, a refusal or a server error says nothing of the result: like an unfinished one, not a completion.
		const status = failure.httpCode ? Number(failure.httpCode) : Number.NaN;
		if (!Number.isInteger(status) || status === 429 || status >= 500) {
			return { unfinished: `Reading moderation ${body.id} failed (${Number.isInteger(status) ? `HTTP ${status}` : 'no answer in time'})` };
		}
		return {
			result: body,
			error: {
				message: failure.message ?? 'Could not read the full result',
				httpCode: failure.httpCode ?? null,
				description: failure.description ?? null,
			},
		};
	}
}
