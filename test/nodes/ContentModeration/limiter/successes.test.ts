/**
 * What successes say: the ones within RATE_WINDOW_MS and the concurrency they sustain; the latency baseline
 * is the fastest success, and a window whose fastest answer is far slower is a rise.
 */
import {
	LATENCY_RISE,
	MIN_LATENCY_RISE_MS,
	RATE_WINDOW_MS,
	Successes,
} from '@package/nodes/ContentModeration/limiter/successes';

/** Adds `count` successes of `latencyMs`; returns whether any ended a window with a rise. */
const add = (watch: Successes, count: number, latencyMs: number, size = 10) =>
	Array.from({ length: count }, () => watch.add(0, latencyMs, size)).some(Boolean);

describe('Successes: latency', () => {
	it('has no baseline before a success, then the lowest latency seen', () => {
		const watch = new Successes(10);
		expect(watch.baselineMs).toBe(Infinity);
		watch.add(0, 300, 10);
		watch.add(0, 200, 10);
		watch.add(0, 250, 10);
		expect(watch.baselineMs).toBe(200);
	});

	it(`a window whose fastest answer is over ${LATENCY_RISE} x the baseline and ${MIN_LATENCY_RISE_MS} ms slower is a rise, judged when it ends`, () => {
		const watch = new Successes(10);
		expect(add(watch, 10, 100)).toBe(false);
		// Nine slow answers: the window is not over yet.
		expect(add(watch, 9, 250)).toBe(false);
		expect(watch.add(0, 250, 10)).toBe(true);
	});

	it('one fast answer in a window is no rise, however slow the others', () => {
		const watch = new Successes(10);
		add(watch, 10, 100);
		expect(add(watch, 9, 5000)).toBe(false);
		expect(watch.add(0, 100, 10)).toBe(false);
	});

	it(`a very fast service's jitter is no rise: less than ${MIN_LATENCY_RISE_MS} ms slower`, () => {
		const watch = new Successes(10);
		add(watch, 10, 10);
		expect(add(watch, 10, 40)).toBe(false);
	});

	it(`exactly ${MIN_LATENCY_RISE_MS} ms slower and over ${LATENCY_RISE} x the baseline is a rise`, () => {
		const watch = new Successes(10);
		add(watch, 10, 40);
		expect(add(watch, 10, 40 + MIN_LATENCY_RISE_MS)).toBe(true);
	});

	it(`exactly ${LATENCY_RISE} x the baseline is no rise yet, however many ms slower`, () => {
		const watch = new Successes(10);
		add(watch, 10, 100);
		expect(add(watch, 10, LATENCY_RISE * 100)).toBe(false);
	});

	it('the baseline drifts up towards a slower service, so it is not held against it forever', () => {
		const watch = new Successes(10);
		add(watch, 10, 100);
		add(watch, 10, 1000);
		expect(watch.baselineMs).toBeGreaterThan(100);
		expect(watch.baselineMs).toBeLessThan(1000);
	});

	it('restart starts a window of the new size', () => {
		const watch = new Successes(10);
		add(watch, 10, 100);
		add(watch, 5, 300);
		watch.restart(3);
		expect(add(watch, 2, 300, 3)).toBe(false);
		expect(watch.add(0, 300, 3)).toBe(true);
	});
});

describe('Successes: rate', () => {
	it('counts the successes completed after a moment', () => {
		const log = new Successes(10);
		for (let t = 100; t <= 1000; t += 100) log.add(t, 200, 10);
		expect(log.countSince(500)).toBe(5);
		expect(log.countSince(0)).toBe(10);
	});

	it(`forgets successes older than ${RATE_WINDOW_MS / 1000} s`, () => {
		const log = new Successes(10);
		log.add(0, 200, 10);
		log.add(1000, 200, 10);
		log.add(RATE_WINDOW_MS + 500, 200, 10);
		expect(log.countSince(-1)).toBe(2);
	});

	it(`a success exactly ${RATE_WINDOW_MS / 1000} s old has left the window`, () => {
		const log = new Successes(10);
		log.add(0, 200, 10);
		log.add(RATE_WINDOW_MS, 200, 10);
		expect(log.countSince(-1)).toBe(1);
	});

	it('forgets old successes just as well when over a thousand leave the window at once', () => {
		const log = new Successes(10);
		for (let i = 0; i < 1100; i++) log.add(0, 200, 10);
		log.add(RATE_WINDOW_MS, 200, 10);
		expect(log.countSince(-1)).toBe(1);
	});

	it('smooths latency (a tenth of each change)', () => {
		const log = new Successes(10);
		expect(log.latencyMs).toBeUndefined();
		log.add(0, 200, 10);
		log.add(1, 300, 10);
		expect(log.latencyMs).toBe(210);
	});

	it("sustained in flight is the accepted rate over the span times the latency (Little's law)", () => {
		const log = new Successes(10);
		// 50/s for 2 s at 200 ms: 10 in flight.
		for (let i = 1; i <= 100; i++) log.add(1000 + i * 20, 200, 10);
		expect(log.sustainedInFlight(3000, 2000, 999)).toBeCloseTo(10, 5);
		// The span is at most the window.
		expect(log.sustainedInFlight(3000, 60_000, 999)).toBeCloseTo((100 / RATE_WINDOW_MS) * 200, 5);
	});
});
