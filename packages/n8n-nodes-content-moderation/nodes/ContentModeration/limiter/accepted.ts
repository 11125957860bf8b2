/**
 * What the service accepted lately: completion times of successes over the last RATE_WINDOW_MS and their
 * smoothed latency, for Little's law (requests in flight = rate x latency). Pure: the caller gives the time.
 */

/** Long enough to span a Retry-After pause and the burst a token bucket lets out after it, short enough to follow a change. */
export const RATE_WINDOW_MS = 5_000;

export class AcceptedLog {
	/** Completion times in order; those before `head` have left the window. */
	private times: number[] = [];
	private head = 0;
	/** Smoothed latency of successes (undefined before the first). */
	latencyMs: number | undefined;

	add(now: number, latencyMs: number): void {
		this.times.push(now);
		this.latencyMs = this.latencyMs === undefined ? latencyMs : this.latencyMs + (latencyMs - this.latencyMs) * 0.1;
		this.forget(now);
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
