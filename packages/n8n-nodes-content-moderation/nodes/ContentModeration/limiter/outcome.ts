/** What one finished send tells the limiter, and what it knew when the send went out. */

/** What one finished send tells the limiter about the service's load. */
export type SendOutcome =
	| { kind: 'success'; latencyMs: number }
	/** 429, or 503: the service asks to slow down; `retryAfterMs` when it said for how long. */
	| { kind: 'throttled'; retryAfterMs?: number }
	/** A timeout or a reset connection: the service may be overloaded. */
	| { kind: 'overloaded' }
	/** Says nothing about load (a 4xx, a refused connection, a cancelled send). */
	| { kind: 'neutral' };

export interface SentAt {
	at: number;
	/** The limit the send went out under. */
	limit: number;
	/** Sends of the service in flight when it went out (itself included). */
	load: number;
}

/** A 429/503 that did not say when to come back: one such answer alone is no sign of overload. */
export function isRefusal(outcome: SendOutcome): boolean {
	return outcome.kind === 'throttled' && !(outcome.retryAfterMs !== undefined && outcome.retryAfterMs > 0);
}
