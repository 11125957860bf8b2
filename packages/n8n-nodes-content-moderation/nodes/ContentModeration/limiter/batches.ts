/**
 * Slow start's batches: while the limit grows blindly, a batch's answers are all read before the next batch goes out (a
 * token bucket running dry refuses a batch's last sends, whose refusals come back last). A batch waiting for a
 * straggler gives way BATCH_GRACE x its first answer's latency after that answer. Pure: the caller gives the time.
 */

export const BATCH_GRACE = 0.25;

export class SlowStartBatches {
	private batch = 0;
	private outstanding = 0;
	/** Set by the batch's first answer (from then on it only closes): when it gives way, stragglers or not. */
	private graceEndsAt: number | undefined;

	/** A send goes out in the current batch; returns the batch, to give back with its answer. */
	sent(): number {
		this.outstanding++;
		return this.batch;
	}

	/** A send of `batch` came back after `latencyMs`: the batch's first answer starts its closing. */
	answered(batch: number, now: number, latencyMs: number): void {
		if (batch !== this.batch) return;
		this.outstanding--;
		this.graceEndsAt ??= now + Math.max(0, latencyMs) * BATCH_GRACE;
	}

	/** Whether a send may go out now; a batch whose answers are all in (or whose grace is over) gives way to the next. */
	open(now: number): boolean {
		if (this.graceEndsAt === undefined) return true;
		if (this.outstanding > 0 && now < this.graceEndsAt) return false;
		this.batch++;
		this.outstanding = 0;
		this.graceEndsAt = undefined;
		return true;
	}

	/** When the next batch may go out without another answer: now when one may, else the end of the grace. */
	opensAt(now: number): number {
		if (this.graceEndsAt === undefined || this.outstanding === 0) return now;
		return Math.max(now, this.graceEndsAt);
	}
}
