/**
 * Retry policy (pure). A request that may have made the service act (a POST, and DELETE, which the spec
 * does not call idempotent) is sent again only when the answer says it was not acted on: 429, a 503 with a
 * Retry-After or a JSON body (the service refusing; a bare 503 may be a proxy's after the service read the
 * request), or connection refused. Reads are also retried on any 5xx and transient network errors.
 */
export interface RetrySettings {
	maxRetries: number;
	/** First backoff step; step n is drawn uniformly from [0, baseDelayMs * 2^n] (full jitter). */
	baseDelayMs: number;
	/** No single wait is longer; a Retry-After asking for more fails the item instead of waiting. */
	maxDelayMs: number;
}

// 5 retries: with 15% of tries failing at random, an item still fails about once in 90,000 (0.15^6).
export const DEFAULT_MAX_RETRIES = 5;
/** Added at random on top of Retry-After: 0..a quarter of the wait, at least 0..MIN and at most 0..this many ms. */
export const RETRY_AFTER_JITTER_MS = 250;
export const MIN_RETRY_AFTER_JITTER_MS = 20;
/** So that a typo in Max Retries cannot keep an item busy for hours. */
export const MAX_RETRIES_LIMIT = 10;

export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
	maxRetries: DEFAULT_MAX_RETRIES,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

/** Network error codes worth another try for a read (Node, undici and axios spellings). */
const TRANSIENT_NETWORK_CODES = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);

export type TryOutcome =
	| { kind: 'status'; statusCode: number; retryAfter?: unknown; jsonBody?: boolean }
	| { kind: 'network'; code?: string };

export type StopReason = 'not-retryable' | 'exhausted' | 'retry-after-too-long';

export type RetryDecision =
	| { retry: true; delayMs: number }
	| { retry: false; reason: StopReason; retryAfterMs?: number };

/** A Retry-After (seconds or an HTTP-date) in ms from `nowMs`: 0 for a past date, undefined when unreadable. */
export function parseRetryAfter(value: unknown, nowMs: number = Date.now()): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (typeof raw === 'number') return Number.isFinite(raw) && raw >= 0 ? Math.round(raw * 1000) : undefined;
	if (typeof raw !== 'string') return undefined;
	const text = raw.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	// An HTTP-date always names a weekday or month; this keeps numbers like "-1" from parsing as dates.
	if (!/[a-z]/i.test(text)) return undefined;
	const at = Date.parse(text);
	return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Full-jitter exponential backoff for retry number `retryIndex` (0 for the first retry). */
export function backoffDelay(retryIndex: number, settings: RetrySettings, random: () => number = Math.random): number {
	const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.max(0, retryIndex));
	return Math.floor(random() * ceiling);
}

export function isReadMethod(method: string): boolean {
	return ['GET', 'HEAD'].includes(method.toUpperCase());
}

/** Whether this outcome may be retried for this method, however many tries are left. */
export function isRetryable(method: string, outcome: TryOutcome): boolean {
	const read = isReadMethod(method);
	if (outcome.kind === 'network') {
		return outcome.code === 'ECONNREFUSED' || (read && TRANSIENT_NETWORK_CODES.has(outcome.code ?? ''));
	}
	const { statusCode } = outcome;
	// A 503 with a Retry-After or a JSON body is the service refusing (it did not act).
	const refused = outcome.jsonBody === true || parseRetryAfter(outcome.retryAfter) !== undefined;
	if (statusCode === 429 || (statusCode === 503 && refused)) return true;
	return read && statusCode >= 500 && statusCode <= 599;
}

/** After try number `retryIndex + 1` failed with `outcome`: wait and try again, or stop. */
export function decideRetry(
	method: string,
	outcome: TryOutcome,
	retryIndex: number,
	settings: RetrySettings,
	nowMs: number = Date.now(),
	random: () => number = Math.random,
): RetryDecision {
	if (!isRetryable(method, outcome)) return { retry: false, reason: 'not-retryable' };
	if (retryIndex >= settings.maxRetries) return { retry: false, reason: 'exhausted' };
	const retryAfterMs =
		outcome.kind === 'status' && (outcome.statusCode === 429 || outcome.statusCode === 503)
			? parseRetryAfter(outcome.retryAfter, nowMs)
			: undefined;
	if (retryAfterMs !== undefined) {
		if (retryAfterMs > settings.maxDelayMs) return { retry: false, reason: 'retry-after-too-long', retryAfterMs };
		// Jitter keeps items throttled together from all coming back in the same instant (or the same slot
		// of a periodic limiter); after Retry-After: 0 the shared limiter spaces the sends.
		const spread = Math.min(RETRY_AFTER_JITTER_MS, Math.max(MIN_RETRY_AFTER_JITTER_MS, retryAfterMs / 4));
		const jitter = Math.floor(random() * spread);
		return { retry: true, delayMs: Math.min(settings.maxDelayMs, retryAfterMs + jitter) };
	}
	return { retry: true, delayMs: backoffDelay(retryIndex, settings, random) };
}

/** A network failure's code through its wrappers (NodeApiError, axios, AggregateError); bounded against cycles. */
export function networkErrorCode(error: unknown): string | undefined {
	const queue: unknown[] = [error];
	const seen = new Set<unknown>();
	let fallback: string | undefined;
	for (let steps = 0; queue.length > 0 && steps < 32; steps++) {
		const current = queue.shift();
		if (current === null || typeof current !== 'object' || seen.has(current)) continue;
		seen.add(current);
		const record = current as Record<string, unknown>;
		const code = record.code;
		if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) {
			if (TRANSIENT_NETWORK_CODES.has(code)) return code;
			fallback ??= code;
		}
		for (const key of ['cause', 'error', 'reason', 'errorResponse']) queue.push(record[key]);
		if (Array.isArray(record.errors)) queue.push(...record.errors);
	}
	return fallback;
}
