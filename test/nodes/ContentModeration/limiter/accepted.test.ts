/** The log of what the service accepted: successes within RATE_WINDOW_MS, and the concurrency they sustain. */
import { AcceptedLog, RATE_WINDOW_MS } from '@package/nodes/ContentModeration/limiter/accepted';

describe('AcceptedLog', () => {
	it('counts the successes completed after a moment', () => {
		const log = new AcceptedLog();
		for (let t = 100; t <= 1000; t += 100) log.add(t, 200);
		expect(log.countSince(500)).toBe(5);
		expect(log.countSince(0)).toBe(10);
	});

	it(`forgets successes older than ${RATE_WINDOW_MS / 1000} s`, () => {
		const log = new AcceptedLog();
		log.add(0, 200);
		log.add(1000, 200);
		log.add(RATE_WINDOW_MS + 500, 200);
		expect(log.countSince(-1)).toBe(2);
	});

	it('smooths latency (a tenth of each change)', () => {
		const log = new AcceptedLog();
		expect(log.latencyMs).toBeUndefined();
		log.add(0, 200);
		log.add(1, 300);
		expect(log.latencyMs).toBe(210);
	});

	it("sustained in flight is the accepted rate over the span times the latency (Little's law)", () => {
		const log = new AcceptedLog();
		// 50/s for 2 s at 200 ms: 10 in flight.
		for (let i = 1; i <= 100; i++) log.add(1000 + i * 20, 200);
		expect(log.sustainedInFlight(3000, 2000, 999)).toBeCloseTo(10, 5);
		// The span is at most the window.
		expect(log.sustainedInFlight(3000, 60_000, 999)).toBeCloseTo((100 / RATE_WINDOW_MS) * 200, 5);
	});
});
