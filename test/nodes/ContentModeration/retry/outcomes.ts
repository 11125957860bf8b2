/** What the retry tests share: a fixed now, small retry settings, the two kinds of failed try, and a failure. */
import type { RetryFailure } from '@package/nodes/ContentModeration/retry/loop';
import type { RetrySettings, StopReason, TryOutcome } from '@package/nodes/ContentModeration/retry/policy';

export const NOW = Date.parse('2026-11-21T12:00:00.000Z');
export const settings: RetrySettings = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };
export const status = (statusCode: number, retryAfter?: unknown): TryOutcome => ({ kind: 'status', statusCode, retryAfter });
export const network = (code?: string): TryOutcome => ({ kind: 'network', code });

/** How a request's tries ended, as withRetries returns it (the response or error itself left out). */
export const failure = (
	method: string,
	lastTry: TryOutcome,
	retries: number,
	stoppedBecause: StopReason,
	wait: { retryAfterMs?: number; maxDelayMs?: number } = {},
): RetryFailure<unknown> =>
	lastTry.kind === 'network'
		? { kind: 'network', error: undefined, method, lastTry, retries, stoppedBecause, ...wait }
		: { kind: 'status', result: undefined, method, lastTry, retries, stoppedBecause, ...wait };
