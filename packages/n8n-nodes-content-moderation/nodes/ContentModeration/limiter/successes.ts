/**
 * What the successes say: their rate over the last RATE_WINDOW_MS and smoothed latency, for Little's law
 * (in flight = rate x latency); the latency baseline (the lowest, drifting up); and a window of a limit's
 * worth whose fastest answer (not this process's own queueing) says whether the service slowed down. Pure.
 */

/** Long enough to span a Retry-After pause and the burst a token bucket lets out after it, short enough to follow a change. */
export const RATE_WINDOW_MS = 5_000;
/** A clear rise: a window's fastest answer above this multiple of the baseline... */
export const LATENCY_RISE = 2;
/** ...and at least this much slower, so that jitter of a very fast service is not a rise. */
export const MIN_LATENCY_RISE_MS = 50;
/** Share of the gap to a window's fastest answer the baseline moves by, so a service slower for good is not held against it forever. */
const BASELINE_DRIFT = 0.05;

export class Successes {
	/** Completion times in order; those before `head` have left the rate window. */
	private times: number[] = [];
	private head = 0;
	/** Smoothed latency (undefined before the first success). */
	latencyMs: number | undefined;
	/** The lowest latency seen (drifting up); Infinity before the first success. */
	baselineMs = Infinity;
	private inWindow = 0;
	private fastestMs = Infinity;

	/** `windowSize`: successes per latency window. */
	constructor(private windowSize: number) {}

	/** Counts a success; true when it ends a window that shows a clear rise. The next window has `nextSize` successes. */
	add(now: number, latencyMs: number, nextSize: number): boolean {
		this.times.push(now);
		this.latencyMs = this.latencyMs === undefined ? latencyMs : this.latencyMs + (latencyMs - this.latencyMs) * 0.1;
		this.forget(now);
		this.baselineMs = Math.min(latencyMs, this.baselineMs);
		this.fastestMs = Math.min(this.fastestMs, latencyMs);
		if (++this.inWindow < this.windowSize) return false;
		const gap = this.fastestMs - this.baselineMs;
		const rise = gap >= MIN_LATENCY_RISE_MS && this.fastestMs > LATENCY_RISE * this.baselineMs;
		this.baselineMs += gap * BASELINE_DRIFT;
		this.restart(nextSize);
		return rise;
	}

	restart(windowSize: number): void {
		this.inWindow = 0;
		this.fastestMs = Infinity;
		this.windowSize = windowSize;
	}

	/** Successes completed after `since` (at most RATE_WINDOW_MS back). */
	countSince(since: number): number {
		let count = 0;
		for (let i = this.times.length - 1; i >= this.head && this.times[i] > since; i--) count++;
		return count;
	}

	/** Requests the service sustains in flight: the rate it accepted over the last `spanMs` times the latency. */
	sustainedInFlight(now: number, spanMs: number, fallbackLatencyMs: number): number {
		const span = Math.max(1, Math.min(RATE_WINDOW_MS, spanMs));
		return (this.countSince(now - span) / span) * (this.latencyMs ?? fallbackLatencyMs);
	}

	private forget(now: number): void {
		while (this.head < this.times.length && this.times[this.head] <= now - RATE_WINDOW_MS) this.head++;
		// Compact now and then, not on every answer.
		if (this.head > 1024 && 2 * this.head > this.times.length) {
			this.times = this.times.slice(this.head);
			this.head = 0;
		}
	}
}
