/**
 * After a decrease for refusals the limit stays at most one above the new level for a while (twice as
 * long after each further refusal): a steady rate limit costs one refusal per hold, not one per sawtooth.
 */

export const HOLD_MS = 10_000;
export const MAX_HOLD_MS = 60_000;

export class RefusalHold {
	private ceiling = Infinity;
	private until = 0;
	private ms = HOLD_MS;
	/** The limit the last refused send went out under; passing it without a refusal resets the hold's length. */
	private refusedLevel = Infinity;

	/** A decrease for refusals left the limit at `limit`; the refused send went out under `refusedLevel`. */
	start(now: number, limit: number, refusedLevel: number): void {
		if (this.until > 0) this.ms = Math.min(MAX_HOLD_MS, this.ms * 2);
		this.ceiling = limit + 1;
		this.refusedLevel = refusedLevel;
		this.until = now + this.ms;
	}

	/** What the limit may grow to now: `next`, or no more than the hold's ceiling (and never below `current`). */
	allow(now: number, current: number, next: number): number {
		const allowed = now < this.until ? Math.min(next, Math.max(current, this.ceiling)) : next;
		if (allowed >= this.refusedLevel + 2) this.ms = HOLD_MS;
		return allowed;
	}
}
