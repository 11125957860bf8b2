/** The poll loop (Deferred and Wait, Text > Moderate); its readiness rule is inbound/readBack.ts `isCompletion`. */
import { pollUntil } from '@package/nodes/ContentModeration/actions/poll';

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
