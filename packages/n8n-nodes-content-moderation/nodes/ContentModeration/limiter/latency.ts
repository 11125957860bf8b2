/**
 * The service's latency as the limit reads it: the baseline (the lowest success latency, drifting up), and
 * a window of a limit's worth of successes whose fastest answer (not this process's own queueing) says
 * whether the service slowed down. Pure.
 */

/** A clear rise: a window's fastest answer above this multiple of the baseline... */
export const LATENCY_RISE = 2;
/** ...and at least this much slower, so that jitter of a very fast service is not a rise. */
export const MIN_LATENCY_RISE_MS = 50;
/** Share of the gap to a window's fastest answer the baseline moves by, so a service slower for good is not held against it forever. */
const BASELINE_DRIFT = 0.05;

export class LatencyWatch {
	/** The lowest latency seen (drifting up); Infinity before the first success. */
	baselineMs = Infinity;
	private successes = 0;
	private fastestMs = Infinity;

	/** `windowSize`: successes per window. */
	constructor(private windowSize: number) {}

	/** Counts a success; true when it ends a window that shows a clear rise. The next window has `nextSize` successes. */
	add(latencyMs: number, nextSize: number): boolean {
		this.baselineMs = Math.min(latencyMs, this.baselineMs);
		this.fastestMs = Math.min(this.fastestMs, latencyMs);
		if (++this.successes < this.windowSize) return false;
		const gap = this.fastestMs - this.baselineMs;
		const rise = gap >= MIN_LATENCY_RISE_MS && this.fastestMs > LATENCY_RISE * this.baselineMs;
		this.baselineMs += gap * BASELINE_DRIFT;
		this.restart(nextSize);
		return rise;
	}

	/** A new window of `windowSize` successes starts (after the limit changed). */
	restart(windowSize: number): void {
		this.successes = 0;
		this.fastestMs = Infinity;
		this.windowSize = windowSize;
	}
}
