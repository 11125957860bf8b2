/**
 * 429/503s without a positive Retry-After are judged per sample of a limit's worth of answers: a service
 * failing at random refuses any send, a full one those on top of the load. A sample is "overloaded" when
 * at least MIN_REFUSED were refused and either more than sporadic faults explain or they sit at the top of
 * the load; what it served is then the level the service takes. Pure.
 */

export const MIN_REFUSED = 2;
/** The share of refusals sporadic faults may explain (the worst sporadic shape the node is built for)... */
export const SPORADIC_SHARE = 0.1;
/** ...and how far above it (standard deviations of a sample's count) a sample must be to be overload: 7 of 20, 71 of 500. */
export const OVERLOAD_Z = 3;
/** Of the r sends with the highest load (r = refusals in the sample), this share refused is overload. */
export const TOP_SHARE = 0.75;
/** How long the first hold after a decrease for refusals lasts, and the longest hold. */
export const HOLD_MS = 10_000;
export const MAX_HOLD_MS = 60_000;

/** Whether `refused` of `answers` is more than sporadic faults explain, whatever the load. */
export function tooManyRefused(refused: number, answers: number): boolean {
	const expected = answers * SPORADIC_SHARE;
	return refused - expected >= OVERLOAD_Z * Math.sqrt(expected * (1 - SPORADIC_SHARE));
}

/** One sample of answers: the load (this process's sends in flight) each went out at, and whether it was refused. */
export class AnswerSample {
	answers: Array<{ load: number; refused: boolean }> = [];

	add(load: number, refused: boolean): void {
		this.answers.push({ load, refused });
	}

	close() {
		const verdict = this.judge();
		this.answers = [];
		return verdict;
	}

	/** The verdict on the answers so far (the sample goes on): overloaded, and how many were served and refused. */
	judge() {
		const { answers } = this;
		const refused = answers.filter((a) => a.refused).length;
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
 * The samples one after another, and slow start's growth held back while the sample so far looks full
 * (refusals that came back at once, on top of the load), given back when it no longer does.
 */
export class RefusalJudge {
	private sample = new AnswerSample();
	/** Whether slow start's growth waits (added to `pending`). */
	holdsGrowth = false;
	pending = 0;

	/** `sampleSize`: answers per sample, the limit when the sample began (or after a decrease). */
	constructor(public sampleSize: number) {}

	/**
	 * Counts one answer (a success or a refusal); returns the growth to give now, or, when its sample
	 * ends saying "full", what the sample served. `limit`: the size of the next sample.
	 */
	answered(load: number, refused: boolean, limit: number): { grow: number } | { full: number } {
		this.sample.add(load, refused);
		const sampling = this.sample.answers.length < this.sampleSize;
		if (sampling && refused) this.holdsGrowth = this.sample.judge().overloaded;
		if (sampling && this.holdsGrowth) return { grow: 0 };
		const grow = this.pending;
		this.pending = 0;
		if (sampling) return { grow };
		const verdict = this.sample.close();
		this.sampleSize = limit;
		this.holdsGrowth = false;
		return verdict.overloaded ? { full: Math.max(1, verdict.served) } : { grow };
	}
}

/**
 * After a decrease for refusals the limit stays at most one above the new level for a while (twice as
 * long after each further refusal): a steady rate limit costs one refusal per hold, not one per sawtooth.
 */
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
