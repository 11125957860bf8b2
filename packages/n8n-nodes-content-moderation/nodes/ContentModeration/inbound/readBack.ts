/**
 * Reading a result back: when a read answer is a completion and the id it is read by (also for Image > Get
 * and Deferred and Wait); for callbacks (the trigger, Callback > Receive, Wait for Callback), which need a
 * read, how long an unfinished result is read again while the sender waits, and the callback completed by it.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isObject } from '../helpers/json';
import { systemClock, type Clock } from '../helpers/clock';
import type { RetrySettings } from '../retry/policy';
import type { ApiClient } from '../transport/client';
import { getImage, getText } from '../transport/endpoints';
import { hasAnalysis } from '../verdict/rules';
import { IMAGE_RESULT_FIELDS, TEXT_RESULT_FIELDS, type CallbackBody, type DataKind } from './envelope';

/** Retries of one callback read (429/503, network): once, briefly, as the sender waits for the answer. */
export const CALLBACK_READ_RETRY: RetrySettings = { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 };

export const READ_AGAIN_DELAYS_MS: readonly number[] = [300, 700, 1_500];
/** All reads and pauses end within this (a read counted as long as the last one took): the answer stays within a sender's 5 s. */
export const READ_BACK_BUDGET_MS = 3_000;
/** A callback's reads, whatever each takes, end by this: its answer stays within a sender's 5 s. */
export const CALLBACK_READS_END_MS = 4_000;

/** Whether a callback's data carries its whole result, every field of its kind (an image unless it shows a text). */
export function carriesFullResult(data: IDataObject, kind: DataKind | undefined): boolean {
	const fields = kind === 'text' ? TEXT_RESULT_FIELDS : IMAGE_RESULT_FIELDS;
	return fields.every((field) => data[field] !== undefined);
}

/** THE rule: a read answer is a completion unless it is a 202, says `status: processing`, or carries no verdict. */
export function isCompletion(statusCode: number, body: unknown): boolean {
	return statusCode !== 202 && isObject(body) && body.status !== 'processing' && hasAnalysis(body);
}

/** The API reference's image result has no id: the one read by is put first where it has none (or null). */
export const withId = (id: string, result: IDataObject): IDataObject =>
	result.id === undefined || result.id === null ? Object.assign({ id }, result, { id }) : result;

/** A 404 reading an id the service itself gave a moment ago means "not stored yet". */
export function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

export type ReadBack =
	/** The result as read, with the id read by (an image result read back has none of its own). */
	| { done: true; statusCode: number; result: IDataObject }
	/** Still unfinished when the budget ran out: not a completion; `message` says so (id and status only). */
	| { done: false; statusCode: number; message: string };

/**
 * Reads result `id` (GET /text/{id} for a text, GET /image/{id} otherwise) until the answer is a completion,
 * again after each of READ_AGAIN_DELAYS_MS while READ_BACK_BUDGET_MS lasts. A failed read throws the
 * transport's error (NodeApiError with the status and the service's message): the caller decides.
 */
export async function readBack(
	client: ApiClient,
	id: string,
	kind: DataKind | undefined,
	itemIndex?: number,
	clock: Clock = systemClock,
): Promise<ReadBack> {
	const read = kind === 'text' ? getText : getImage;
	const started = clock.now();
	for (let attempt = 0; ; attempt++) {
		const readStarted = clock.now();
		const { statusCode, body } = await read(client, id, itemIndex);
		if (isCompletion(statusCode, body)) return { done: true, statusCode, result: withId(id, body) };
		const pause = READ_AGAIN_DELAYS_MS[attempt];
		const nextEnds = clock.now() + (pause ?? 0) + (clock.now() - readStarted);
		if (pause === undefined || nextEnds - started > READ_BACK_BUDGET_MS) {
			const status = isObject(body) && typeof body.status === 'string' ? `, status "${body.status.slice(0, 40)}"` : '';
			return {
				done: false,
				statusCode,
				message: `The service has not finished moderation ${id} yet (HTTP ${statusCode}${status})`,
			};
		}
		await clock.sleep(pause);
	}
}

export type CompletedResult =
	/** `error`: the full result was needed but could not be read. */
	| { result: IDataObject; error?: IDataObject }
	/** Read back still unfinished: not a completion, nothing to pass on yet. */
	| { unfinished: string };

/**
 * The trigger's callback with the full result read through `client` (none: no credential or Fetch Full
 * Result off) when it misses result fields; the read wins, extra callback fields are kept. Without an id,
 * and for a review decision, the callback is passed on as it came. `distrust` (accepted without a Callback
 * Secret): a result is always read, and only its id and warning are taken from the call.
 */
export async function completeResult(
	body: CallbackBody,
	client: ApiClient | undefined,
	kind: DataKind | undefined,
	distrust: boolean,
): Promise<CompletedResult> {
	if (distrust && kind !== 'queueItem')
		body = { id: body.id, ...(body.warning === undefined ? {} : { warning: body.warning }) };
	const full = kind === 'queueItem' || (!distrust && carriesFullResult(body, kind));
	if (body.id === null) {
		const missing = full
			? ''
			: `, and the result fields it misses could not be read with GET /${kind === 'text' ? 'text' : 'image'}/{id}`;
		const warning = `${String(body.warning)}, so it cannot be matched to its submission${missing}. A delivery of it again starts the workflow again. Its fields are as the service sent them.`;
		return { result: { ...body, warning } };
	}
	if (full || client === undefined) return { result: body };
	try {
		const reading = await readBack(client, body.id, kind);
		return reading.done ? { result: { ...body, ...reading.result } } : { unfinished: reading.message };
	} catch (error) {
		// The transport's errors carry the status and the service's message, never a secret.
		const { message, httpCode, description } = error as { message?: string; httpCode?: string; description?: string };
		// No answer, a refusal or a server error says nothing of the result: like an unfinished one, not a completion.
		const status = httpCode ? Number(httpCode) : Number.NaN;
		if (!Number.isInteger(status) || status === 429 || status >= 500) {
			const failed = Number.isInteger(status) ? `HTTP ${status}` : 'no answer in time';
			return { unfinished: `Reading moderation ${body.id} failed (${failed})` };
		}
		const failure = {
			message: message ?? 'Could not read the full result',
			httpCode,
			description: description ?? null,
		};
		return { result: body, error: failure };
	}
}
