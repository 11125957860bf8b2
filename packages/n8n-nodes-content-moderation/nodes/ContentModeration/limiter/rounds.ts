/**
 * Slow start's rounds. While the limit grows blindly, the answers of one round are all read before the
 * next round goes out: a service that refuses the last sends of a round (a token bucket running dry)
 * answers those refusals last, and sends released one per success would already be out by then.
 * A round that waits for a straggler opens anyway ROUND_GRACE x the first answer's latency after that
 * answer, so one slow request does not hold the others. Pure: the caller gives the time.
 */

/** How long a closing round waits for its last answers, as a share of its first answer's latency. */
export const ROUND_GRACE = 0.25;

export class SlowStartRounds {
	private round = 0;
	private outstanding = 0;
	/** When the round's first answer came back: from then on it only closes. */
	private closingSince: number | undefined;
	private graceMs = 0;

	/** A send goes out in the current round; returns the round, to give back with its answer. */
	sent(): number {
		this.outstanding++;
		return this.round;
	}

	/** A send of `round` came back after `latencyMs`: the round's first answer starts its closing. */
	answered(round: number, now: number, latencyMs: number): void {
		if (round !== this.round) return;
		this.outstanding--;
		if (this.closingSince === undefined) {
			this.closingSince = now;
			this.graceMs = Math.max(0, latencyMs) * ROUND_GRACE;
		}
	}

	/** Whether a send may go out now; a round whose answers are all in (or whose grace is over) gives way to the next. */
	open(now: number): boolean {
		if (this.closingSince === undefined) return true;
		if (this.outstanding > 0 && now < this.closingSince + this.graceMs) return false;
		this.round++;
		this.outstanding = 0;
		this.closingSince = undefined;
		return true;
	}

	/** When a round waiting for stragglers opens by its grace; undefined when none waits. */
	opensAt(): number | undefined {
		return this.closingSince === undefined || this.outstanding === 0 ? undefined : this.closingSince + this.graceMs;
	}
}
