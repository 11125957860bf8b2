/**
 * Refusals that say nothing about when to come back (a 503 or 429 without a positive Retry-After),
 * judged per round (a limit's worth of answers) from what the answers say together, not one by one:
 *   - a service that drops one answer in twenty at random is not full: its refusals fall on any send;
 *   - a full service refuses what goes over its capacity: the sends that went out on top of the load.
 * So a round says "overloaded" when at least MIN_REFUSED of its answers were refused and either more
 * than sporadic faults explain (SPORADIC_SHARE of answers, plus OVERLOAD_Z standard deviations: a round
 * of 20 needs 7, of 500 needs 71), or the refusals sit at the top of the load (TOP_SHARE of the sends
 * with the highest load were refused). What the round served is then the level the service takes.
 * Pure: the caller gives the answers.
 */

export const MIN_REFUSED = 2;
/** The share of refusals sporadic faults may explain (the worst sporadic shape: 10%)... */
export const SPORADIC_SHARE = 0.1;
/** ...and how far above it (standard deviations of a round's count) a round must be to be overload. */
export const OVERLOAD_Z = 3;

/** Whether `refused` of `answers` is more than sporadic faults explain, whatever the load. */
export function tooManyRefused(refused: number, answers: number): boolean {
	const expected = answers * SPORADIC_SHARE;
	return refused - expected >= OVERLOAD_Z * Math.sqrt(expected * (1 - SPORADIC_SHARE));
}
/** Of the r sends with the highest load (r = refusals in the round), this share refused is overload. */
export const TOP_SHARE = 0.75;

export interface RoundVerdict {
	overloaded: boolean;
	/** Answers of the round that were served. */
	served: number;
	refused: number;
}

export class RefusalRound {
	/** Load (this process's sends in flight when it went out) and whether it was refused, per answer. */
	private answers: Array<{ load: number; refused: boolean }> = [];
	private refusedCount = 0;

	get size(): number {
		return this.answers.length;
	}

	get refused(): number {
		return this.refusedCount;
	}

	add(load: number, refused: boolean): void {
		this.answers.push({ load, refused });
		if (refused) this.refusedCount++;
	}

	/** Ends the round and judges it. */
	close(): RoundVerdict {
		const verdict = this.judge();
		this.answers = [];
		this.refusedCount = 0;
		return verdict;
	}

	/** The verdict on the answers so far (the round goes on). */
	judge(): RoundVerdict {
		const { answers, refusedCount: refused } = this;
		const served = answers.length - refused;
		if (refused < MIN_REFUSED) return { overloaded: false, served, refused };
		if (tooManyRefused(refused, answers.length)) return { overloaded: true, served, refused };
		// Highest load first; among equal loads successes first, so sends that all went out at the same
		// load (a limit in steady use) are no evidence either way.
		const byLoad = [...answers].sort((a, b) => b.load - a.load || Number(a.refused) - Number(b.refused));
		const onTop = byLoad.slice(0, refused).filter((a) => a.refused).length;
		return { overloaded: onTop >= TOP_SHARE * refused, served, refused };
	}
}

/**
 * The rounds one after another, and slow start's growth held back while the round so far looks full
 * (refusals that came back at once, on top of the load), given back when it no longer does.
 */
export class RefusalJudge {
	private round = new RefusalRound();
	private suspect = false;
	private pending = 0;

	/** `size`: answers per round, the limit when the round began. */
	constructor(private size: number) {}

	/** Whether slow start's growth waits (`defer` it). */
	get holdsGrowth(): boolean {
		return this.suspect;
	}

	defer(step: number): void {
		this.pending += step;
	}

	/**
	 * Counts one answer (a success or a refusal); returns the growth to give now, or, when its round
	 * ends saying "full", what the round served. `limit`: the size of the next round.
	 */
	answered(load: number, refused: boolean, limit: number): { grow: number } | { full: number } {
		this.round.add(load, refused);
		if (this.round.size < this.size) {
			if (refused) this.suspect = this.round.judge().overloaded;
			return { grow: this.suspect ? 0 : this.takePending() };
		}
		const verdict = this.round.close();
		this.size = limit;
		this.suspect = false;
		const grow = this.takePending();
		return verdict.overloaded ? { full: Math.max(1, verdict.served) } : { grow };
	}

	/** A new round of `size` answers starts (after a decrease). */
	restart(size: number): void {
		this.size = size;
	}

	private takePending(): number {
		const pending = this.pending;
		this.pending = 0;
		return pending;
	}
}
