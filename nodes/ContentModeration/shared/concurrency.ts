/**
 * Bounded parallelism for per-item work (pure: no timers), and the node-level option that sets it.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_RETRIES, MAX_RETRIES_LIMIT, normalizeMaxRetries } from './retry';

/** Default number of items processed at once; 1 keeps the old sequential behaviour. */
export const DEFAULT_CONCURRENCY = 5;
/** Upper bound of the option; far above what one service usually allows per client. */
export const MAX_CONCURRENCY = 200;

/** Turns whatever the user typed into a whole number within 1..MAX_CONCURRENCY. */
export function normalizeConcurrency(value: unknown, fallback = DEFAULT_CONCURRENCY): number {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isFinite(n)) return fallback;
	return Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(n)));
}

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Runs `worker` for every item with at most `limit` calls in flight and returns the outcomes in input
 * order. Never rejects: each outcome says whether its call succeeded. With `stopOnError`, no new item is
 * started after the first failure (items already running finish); unstarted items are left out of the
 * result (their slots stay `undefined`).
 */
export async function mapSettled<T, R>(
	items: readonly T[],
	limit: number,
	worker: (item: T, index: number) => Promise<R>,
	stopOnError = false,
): Promise<Array<Settled<R> | undefined>> {
	const results: Array<Settled<R> | undefined> = new Array(items.length);
	const lanes = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
	let next = 0;
	let stopped = false;

	const lane = async (): Promise<void> => {
		while (!stopped && next < items.length) {
			const index = next++;
			try {
				results[index] = { ok: true, value: await worker(items[index], index) };
			} catch (error) {
				results[index] = { ok: false, error };
				if (stopOnError) stopped = true;
			}
		}
	};

	await Promise.all(Array.from({ length: lanes }, lane));
	return results;
}

/**
 * Like `Promise.all(items.map(worker))` with at most `limit` calls in flight. On failure it starts no new
 * item, waits for the running ones, then throws the error of the lowest failed index, so the item that
 * fails is the same one a sequential run would report first among those that ran.
 */
export async function mapConcurrent<T, R>(
	items: readonly T[],
	limit: number,
	worker: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const settled = await mapSettled(items, limit, worker, true);
	const values: R[] = new Array(items.length);
	for (let i = 0; i < settled.length; i++) {
		const outcome = settled[i];
		if (outcome === undefined) continue;
		if (!outcome.ok) throw outcome.error;
		values[i] = outcome.value;
	}
	return values;
}

/** Name of the node-level collection holding the throughput settings. */
export const REQUEST_OPTIONS = 'requestOptions';

/**
 * Node-level settings shared by every operation: how many items run at once and how often a failed
 * request is tried again. Read once per node run (item 0), since they shape the whole run.
 */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: REQUEST_OPTIONS,
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
			default: DEFAULT_CONCURRENCY,
			description:
				'How many items are sent to the service at the same time. 1 sends them one after another. Output order and item pairing stay the same.',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_RETRIES_LIMIT, numberPrecision: 0 },
			default: DEFAULT_MAX_RETRIES,
			description:
				'How often a failed request is tried again (429 and 503 wait for Retry-After, others back off). Submissions are only re-sent when the service cannot have acted on them, so nothing is moderated twice.',
		},
	],
};

export interface ThroughputOptions {
	concurrency: number;
	maxRetries: number;
}

/** The node-level settings of this run; defaults for whatever the node does not set. */
export function readThroughputOptions(ctx: Pick<IExecuteFunctions, 'getNodeParameter'>): ThroughputOptions {
	const raw = (ctx.getNodeParameter(REQUEST_OPTIONS, 0, {}) as IDataObject | null) ?? {};
	return {
		concurrency: normalizeConcurrency(raw.concurrency),
		maxRetries: normalizeMaxRetries(raw.maxRetries),
	};
}
