/** The retry loop: sends, and sends again while the policy in policy.ts allows; and what it says to the user. */
import type { RetrySettings, StopReason, TryOutcome } from './policy';
import { decideRetry, isReadMethod, isRetryable, networkErrorCode } from './policy';

export interface Attempts<T> {
	/** Sends the request once. A throw is a network-level failure (no HTTP status). */
	send: () => Promise<T>;
	/** Reduces a response to a status outcome, or undefined when it is a success. */
	statusOf: (result: T) => TryOutcome | undefined;
	sleep: (ms: number) => Promise<void>;
	now?: () => number;
	random?: () => number;
}

/** The last failed try and why no other followed: what the error note needs. */
export type RetryFailure<T> = ({ kind: 'status'; result: T } | { kind: 'network'; error: unknown }) & {
	method: string;
	lastTry: TryOutcome;
	/** Tries made after the first. */
	retries: number;
	stoppedBecause: StopReason;
	/** With 'retry-after-too-long': the wait the service asked for, and the longest this node waits. */
	retryAfterMs?: number;
	maxDelayMs?: number;
};

/** Never a throw: the caller maps failures to its own errors. */
export type RetryResult<T> = { kind: 'success'; result: T; retries: number } | RetryFailure<T>;

export async function withRetries<T>(
	method: string,
	settings: RetrySettings,
	attempts: Attempts<T>,
): Promise<RetryResult<T>> {
	const now = attempts.now ?? Date.now;
	for (let retryIndex = 0; ; retryIndex++) {
		let failure: RetryFailure<T>;
		const stop = { method, retries: retryIndex, stoppedBecause: 'not-retryable' as StopReason };
		try {
			const result = await attempts.send();
			const status = attempts.statusOf(result);
			if (status === undefined) return { kind: 'success', result, retries: retryIndex };
			failure = { kind: 'status', result, lastTry: status, ...stop };
		} catch (error) {
			failure = { kind: 'network', error, lastTry: { kind: 'network', code: networkErrorCode(error) }, ...stop };
		}
		const decision = decideRetry(method, failure.lastTry, retryIndex, settings, now(), attempts.random);
		if (!decision.retry) {
			failure.stoppedBecause = decision.reason;
			if (decision.retryAfterMs !== undefined) {
				failure.retryAfterMs = decision.retryAfterMs;
				failure.maxDelayMs = settings.maxDelayMs;
			}
			return failure;
		}
		await attempts.sleep(decision.delayMs);
	}
}

/** What retrying did, for the error a user sees; undefined when nothing is worth saying (a 400, say). */
export function retryNote(failure: RetryFailure<unknown>): string | undefined {
	const { method, lastTry, retries, stoppedBecause, retryAfterMs, maxDelayMs } = failure;
	const tries = `${retries + 1} ${retries === 0 ? 'try' : 'tries'}`;
	if (stoppedBecause === 'exhausted') {
		return `Gave up after ${tries}; raise Max Retries or lower Max Concurrency (or Fixed Concurrency).`;
	}
	if (stoppedBecause === 'retry-after-too-long' && retryAfterMs !== undefined && maxDelayMs !== undefined) {
		return `The service asked to wait ${Math.ceil(retryAfterMs / 1000)} s before trying again, longer than the ${Math.round(maxDelayMs / 1000)} s this node waits at most; stopped after ${tries}.`;
	}
	if (!isReadMethod(method) && lastTry.kind === 'status' && lastTry.statusCode === 503) {
		return `Not sent again: this 503 carries neither a Retry-After nor a JSON body, so it may come from a proxy in front of the service after the service received the ${method.toUpperCase()}, which may have been acted on. Before running the item again, check whether it was: read it by its id if you have one (Get), or look in the ContentMod dashboard.`;
	}
	if (!isReadMethod(method) && isRetryable('GET', lastTry)) {
		return `Not sent again: a ${method.toUpperCase()} is retried only when the service cannot have acted on it (429, a 503 with Retry-After or a JSON body, connection refused), so nothing is submitted twice.`;
	}
	return retries > 0 ? `Stopped after ${tries}.` : undefined;
}
