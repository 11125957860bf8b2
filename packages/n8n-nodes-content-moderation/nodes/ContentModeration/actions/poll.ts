/** The poll loop of Image > Moderate "Deferred and Wait". */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

export const MIN_POLL_INTERVAL_SECONDS = 0.1;

export interface PollTiming {
	intervalSeconds: number;
	timeoutSeconds: number;
}

export function readPollTiming(ctx: IExecuteFunctions, itemIndex: number, defaults: PollTiming): PollTiming {
	const interval = Number(ctx.getNodeParameter('pollInterval', itemIndex, defaults.intervalSeconds));
	const timeout = Number(ctx.getNodeParameter('waitTimeout', itemIndex, defaults.timeoutSeconds));
	return {
		intervalSeconds: Math.max(MIN_POLL_INTERVAL_SECONDS, interval || defaults.intervalSeconds),
		timeoutSeconds: Math.max(0, timeout || 0),
	};
}

/** A 404 while polling means "not stored yet": the id came from the service itself a moment ago. */
export function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

/** Calls `check` every interval until it returns a value; undefined once the timeout has passed. */
export async function pollUntil<T>(timing: PollTiming, check: () => Promise<T | undefined>): Promise<T | undefined> {
	const intervalMs = timing.intervalSeconds * 1000;
	const deadline = Date.now() + timing.timeoutSeconds * 1000;
	// Bounded by count as well as by time, in case the clock jumps.
	const maxChecks = Math.ceil(timing.timeoutSeconds / timing.intervalSeconds) + 1;

	for (let attempt = 0; attempt < maxChecks; attempt++) {
		const value = await check();
		if (value !== undefined) return value;
		const remaining = deadline - Date.now();
		if (remaining <= 0) break;
		await sleep(Math.min(intervalMs, remaining));
	}
	return undefined;
}
