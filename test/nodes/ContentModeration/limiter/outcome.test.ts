/** What an answer tells the limit: a refusal is a 429/503 that did not say when to come back. */
import { isRefusal, retryAfterOf } from '@package/nodes/ContentModeration/limiter/outcome';

describe('isRefusal / retryAfterOf', () => {
	it('a 429/503 without a positive Retry-After is a refusal; with one it is a pause', () => {
		expect(isRefusal({ kind: 'throttled' })).toBe(true);
		expect(isRefusal({ kind: 'throttled', retryAfterMs: 0 })).toBe(true);
		expect(retryAfterOf({ kind: 'throttled', retryAfterMs: 0 })).toBeUndefined();
		expect(isRefusal({ kind: 'throttled', retryAfterMs: 1000 })).toBe(false);
		expect(retryAfterOf({ kind: 'throttled', retryAfterMs: 1000 })).toBe(1000);
	});

	it('other answers are neither', () => {
		for (const outcome of [{ kind: 'success', latencyMs: 5 }, { kind: 'overloaded' }, { kind: 'neutral' }] as const) {
			expect(isRefusal(outcome)).toBe(false);
			expect(retryAfterOf(outcome)).toBeUndefined();
		}
	});
});
