/** Reading a result back; for callbacks, how long an unfinished one is read again while the sender waits. */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isObject } from '../helpers/json';
import { systemClock, type Clock } from '../helpers/clock';
import type { RetrySettings } from '../retry/policy';
import type { ApiClient } from '../transport/client';
import { getImage, getText } from '../transport/endpoints';
import { incompleteness, isCompleteResult } from '../verdict/rules';
import { completedWith, isCompletion } from './completion';
import type { CallbackBody, DataKind } from './envelope';

/** Retries of one callback read (429/503, network): once, briefly, as the sender waits for the answer. */
export const CALLBACK_READ_RETRY: RetrySettings = { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 };

export const READ_AGAIN_DELAYS_MS: readonly number[] = [300, 700, 1_500];
/** All reads and pauses end within this (a read counted as long as the last one took): the answer stays within a sender's 5 s. */
export const READ_BACK_BUDGET_MS = 3_000;
/** A callback's reads, whatever each takes, end by this: its answer stays within a sender's 5 s. */
export const CALLBACK_READS_END_MS = 4_000;

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

/** An id whose data shows no kind: an image's, else (404) a text's. */
const getEither: typeof getImage = (client, id, at) =>
	getImage(client, id, at).catch((error) => (isNotFound(error) ? getText(client, id, at) : Promise.reject(error)));

/** Reads result `id` until it is a completion, within READ_BACK_BUDGET_MS; a failed read throws (the caller decides). */
export async function readBack(
	client: ApiClient,
	id: string,
	kind: DataKind | undefined,
	itemIndex?: number,
	clock: Clock = systemClock,
): Promise<ReadBack> {
	const read = kind === 'text' ? getText : kind === 'image' ? getImage : getEither;
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
	| { result: IDataObject }
	/** Not complete (completion.ts) and not completed by a read: nothing to pass on; `final`: no read can help. */
	| { unfinished: string; final?: true; failedRead?: true }
	/** Accepted without a Callback Secret: the service refused the read (a 4xx but 429), so it has no such result. */
	| { unknown: true };

/**
 * The trigger's callback as a complete result: as it came, else read through `client` (none: no credential or
 * Fetch Full Result off). `distrust` (no Callback Secret): always read, only the id taken from the call.
 */
export async function completeResult(
	body: CallbackBody,
	client: ApiClient | undefined,
	kind: DataKind | undefined,
	distrust: boolean,
): Promise<CompletedResult> {
	if (kind === 'queueItem' && !distrust) return { result: body };
	if (!distrust && isCompleteResult(body)) {
		if (body.id !== null) return { result: body };
		const warning = `${String(body.warning)}, so it cannot be matched to its submission. A delivery of it again starts the workflow again. Its fields are as the service sent them.`;
		return { result: { ...body, warning } };
	}
	const why = `The callback carries no complete result (${distrust ? 'accepted without a Callback Secret' : `${incompleteness(body)} in the callback`})`;
	if (body.id === null) return { unfinished: `${why} and no id to read it by`, final: true };
	if (client === undefined)
		return { unfinished: `${why}, and Fetch Full Result is off or no credential is selected`, final: true };
	try {
		const reading = await readBack(client, body.id, kind);
		if (!reading.done) return { unfinished: reading.message };
		return { result: distrust ? reading.result : completedWith(body, reading.result) };
	} catch (error) {
		// The transport's errors carry the status and the service's message, never a secret.
		const status = Number((error as { httpCode?: string }).httpCode || Number.NaN);
		if (distrust && status >= 400 && status < 500 && status !== 429) return { unknown: true };
		// Signed, nothing read is delivered: the sender is asked again (a wrong key or Base URL may be fixed meanwhile).
		const failed = `Reading moderation ${body.id} failed (${Number.isInteger(status) ? `HTTP ${status}` : 'no answer in time'})`;
		return { unfinished: failed, failedRead: true };
	}
}
