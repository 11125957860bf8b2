/** The latency watch: the baseline is the fastest success, and a window whose fastest answer is far slower is a rise. */
import { LATENCY_RISE, LatencyWatch, MIN_LATENCY_RISE_MS } from '@package/nodes/ContentModeration/limiter/latency';

/** Adds `count` successes of `latencyMs`; returns whether any ended a window with a rise. */
const add = (watch: LatencyWatch, count: number, latencyMs: number, size = 10) =>
	Array.from({ length: count }, () => watch.add(latencyMs, size)).some(Boolean);

describe('LatencyWatch', () => {
	it('has no baseline before a success, then the lowest latency seen', () => {
		const watch = new LatencyWatch(10);
		expect(watch.baselineMs).toBe(Infinity);
		watch.add(300, 10);
		watch.add(200, 10);
		watch.add(250, 10);
		expect(watch.baselineMs).toBe(200);
	});

	it(`a window whose fastest answer is over ${LATENCY_RISE} x the baseline and ${MIN_LATENCY_RISE_MS} ms slower is a rise, judged when it ends`, () => {
		const watch = new LatencyWatch(10);
		expect(add(watch, 10, 100)).toBe(false);
		// Nine slow answers: the window is not over yet.
		expect(add(watch, 9, 250)).toBe(false);
		expect(watch.add(250, 10)).toBe(true);
	});

	it('one fast answer in a window is no rise, however slow the others', () => {
		const watch = new LatencyWatch(10);
		add(watch, 10, 100);
		expect(add(watch, 9, 5000)).toBe(false);
		expect(watch.add(100, 10)).toBe(false);
	});

	it(`a very fast service's jitter is no rise: less than ${MIN_LATENCY_RISE_MS} ms slower`, () => {
		const watch = new LatencyWatch(10);
		add(watch, 10, 10);
		expect(add(watch, 10, 40)).toBe(false);
	});

	it('the baseline drifts up towards a slower service, so it is not held against it forever', () => {
		const watch = new LatencyWatch(10);
		add(watch, 10, 100);
		add(watch, 10, 1000);
		expect(watch.baselineMs).toBeGreaterThan(100);
		expect(watch.baselineMs).toBeLessThan(1000);
	});

	it('restart starts a window of the new size', () => {
		const watch = new LatencyWatch(10);
		add(watch, 10, 100);
		add(watch, 5, 300);
		watch.restart(3);
		expect(add(watch, 2, 300, 3)).toBe(false);
		expect(watch.add(300, 3)).toBe(true);
	});
});
