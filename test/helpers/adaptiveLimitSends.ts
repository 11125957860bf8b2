/** Sends and answers for the adaptive limit's tests (limiter/adaptiveLimit*.test.ts), on their fake clock. */
import type { AdaptiveLimit } from '@package/nodes/ContentModeration/limiter/adaptiveLimit';
import type { SendOutcome, SentAt } from '@package/nodes/ContentModeration/limiter/outcome';

export const LATENCY = 200;
export const ok: SendOutcome = { kind: 'success', latencyMs: LATENCY };
export const refused: SendOutcome = { kind: 'throttled' };

/** Sends as many as may start now. */
export function fill(limit: AdaptiveLimit, now: number): SentAt[] {
	const sent: SentAt[] = [];
	while (limit.mayStart(now)) sent.push(limit.sent(now));
	return sent;
}
