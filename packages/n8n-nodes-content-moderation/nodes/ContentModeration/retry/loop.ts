/** The retry loop: sends, and sends again while the policy in policy.ts allows; and what it says to the user. */
import type { RetrySettings, TryOutcome } from './policy';
import { DEFAULT_RETRY_SETTINGS, decideRetry, isReadMethod, isRetryable, networkErrorCode } from './policy';

export interface RetryRun<T> {
	/** Sends the request once. A throw is a network-level failure (no HTTP status). */
	send: () => Promise<T>;
	/** Reduces a response to a status outcome, or undefined when it is a success. */
	statusOf: (result: T) => TryOutcome | undefined;
	sleep: (ms: number) => Promise<void>;
	now?: () => number;
	random?: () => number;
}

export type StopReason = 'not-retryable' | 'exhausted' | 'retry-after-too-long';

/** How a run ended. Never a throw: the caller maps failures to its own errors. */
export type RetryResult<T> =
	| { kind: 'success'; result: T; retries: number }
	| { kind: 'status'; result: T; retries: number; stoppedBecause: StopReason; retryAfterMs?: number }
	| { kind: 'network'; error: unknown; retries: number; stoppedBecause: StopReason };

/** Sends, and sends again while the policy allows; `retries` counts the extra tries made. */
export async function withRetries<T>(
	method: string,
	settings: RetrySettings,
	run: RetryRun<T>,
): Promise<RetryResult<T>> {
	const now = run.now ?? Date.now;
	for (let retryIndex = 0; ; retryIndex++) {
		let outcome: TryOutcome;
		let failure: RetryResult<T>;
		try {
			const result = await run.send();
			const status = run.statusOf(result);
			if (status === undefined) return { kind: 'success', result, retries: retryIndex };
			outcome = status;
			failure = { kind: 'status', result, retries: retryIndex, stoppedBecause: 'not-retryable' };
		} catch (error) {
			outcome = { kind: 'network', code: networkErrorCode(error) };
			failure = { kind: 'network', error, retries: retryIndex, stoppedBecause: 'not-retryable' };
		}
		const decision = decideRetry(method, outcome, retryIndex, settings, now(), run.random);
		if (!decision.retry) {
			failure.stoppedBecause = decision.reason;
			if (failure.kind === 'status' && decision.retryAfterMs !== undefined) {
				failure.retryAfterMs = decision.retryAfterMs;
			}
			return failure;
		}
		await run.sleep(decision.delayMs);
	}
}

/**
 * One sentence for the error a user sees, saying what retrying did; undefined when there is nothing
 * worth saying (for example a 400, which no method would retry).
 */
export function retryNote(
	method: string,
	outcome: TryOutcome,
	retries: number,
	stoppedBecause: StopReason,
	retryAfterMs?: number,
	maxDelayMs: number = DEFAULT_RETRY_SETTINGS.maxDelayMs,
): string | undefined {
	const tries = `${retries + 1} ${retries === 0 ? 'try' : 'tries'}`;
	if (stoppedBecause === 'exhausted') {
		return `Gave up after ${tries}; raise Max Retries or lower Max Concurrency (or Fixed Concurrency).`;
	}
	if (stoppedBecause === 'retry-after-too-long' && retryAfterMs !== undefined) {
		return `The service asked to wait ${Math.ceil(retryAfterMs / 1000)} s before trying again, longer than the ${Math.round(maxDelayMs / 1000)} s this node waits at most; stopped after ${tries}.`;
	}
	if (!isReadMethod(method) && isRetryable('GET', outcome)) {
		return `Not sent again: a ${method.toUpperCase()} is retried only when the service cannot have acted on it (429, 503, connection refused), so nothing is submitted twice.`;
	}
	return retries > 0 ? `Stopped after ${tries}.` : undefined;
}
