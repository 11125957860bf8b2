/** What a finished send tells the limit, and what the limit knew when the send went out. */

export type SendOutcome =
	| { kind: 'success'; latencyMs: number }
	/** 429, or 503: the service asks to slow down; `retryAfterMs` when it said for how long. */
	| { kind: 'throttled'; retryAfterMs?: number }
	/** A timeout or a reset connection: the service may be overloaded. */
	| { kind: 'overloaded' }
	/** Says nothing about load (a 4xx, a refused connection, a cancelled send). */
	| { kind: 'neutral' };

/** Given back with a send's answer. */
export interface SentAt {
	at: number;
	/** The limit the send went out under. */
	limit: number;
	/** Sends of the service in flight when it went out (itself included). */
	load: number;
	/** The slow-start batch it went out in. */
	batch: number;
}

/** A 429/503 that said when to come back: how long (ms), else undefined. */
export function retryAfterOf(outcome: SendOutcome): number | undefined {
	return outcome.kind === 'throttled' && (outcome.retryAfterMs ?? 0) > 0 ? outcome.retryAfterMs : undefined;
}

/** A 429/503 that did not say when to come back: one such answer alone is no sign of overload. */
export const isRefusal = (outcome: SendOutcome): boolean =>
	outcome.kind === 'throttled' && retryAfterOf(outcome) === undefined;
