/** The readiness rule of the poll loop (Deferred and Wait, Text > Moderate). */
import { isResultReady, pollUntil } from '@package/nodes/ContentModeration/actions/poll';

describe('isResultReady (deferredWait polling rule)', () => {
	it('only a body with a boolean isSafe is a result; 202 never is', () => {
		expect(isResultReady(200, { id: 'x', isSafe: false })).toBe(true);
		expect(isResultReady(200, { id: 'x', status: 'processing' })).toBe(false);
		expect(isResultReady(200, { isSafe: 'true' })).toBe(false);
		expect(isResultReady(202, { id: 'x', isSafe: true })).toBe(false);
		expect(isResultReady(200, null)).toBe(false);
		expect(isResultReady(200, '')).toBe(false);
	});
});

describe('pollUntil (the shared poll loop)', () => {
	it('returns the first value a check gives, checking once per interval', async () => {
		let calls = 0;
		const value = await pollUntil({ intervalSeconds: 0.05, timeoutSeconds: 5 }, async () => (++calls === 3 ? 'ready' : undefined));
		expect([value, calls]).toEqual(['ready', 3]);
	});

	it('gives up after the timeout with a bounded number of checks, the first at once', async () => {
		const times: number[] = [];
		const started = Date.now();
		const value = await pollUntil({ intervalSeconds: 0.1, timeoutSeconds: 0.35 }, async () => void times.push(Date.now() - started));
		expect(value).toBeUndefined();
		expect(times[0]).toBeLessThan(90);
		expect(times.length).toBeGreaterThanOrEqual(3);
		expect(times.length).toBeLessThanOrEqual(5);
	});
});
