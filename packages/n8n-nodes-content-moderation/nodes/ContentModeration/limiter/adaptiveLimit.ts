/**
 * How many sends may be in flight, learned from the answers as TCP learns its window (AIMD): slow start x3 per
 * round trip until the first sign of trouble, then +1. Pure: the caller gives the time.
 */
import { SlowStartBatches } from './batches';
import { isRefusal, type SendOutcome, type SentAt } from './outcome';
import { Places } from './places';
import { RefusalHold, RefusalJudge } from './refusals';
import { Successes } from './successes';

/**
 * Start of slow start: a probe a service on any paid plan takes (a 50/s limit takes 20 in one round
 * trip), large enough that a fast service is reached in four round trips (20, 60, 180, 540).
 */
export const INITIAL_LIMIT = 20;
/** Slow start adds this per healthy answer: x3 per round trip. */
export const SLOW_START_STEP = 2;
/** Decrease on timeouts and resets, and on a 429/503 when nothing was accepted. */
export const BACKOFF = 0.5;
/** Decrease on a 429/503 when the service sustains more than that. */
export const THROTTLE_BACKOFF = 0.9;
/** Decrease on a clear latency rise: gentle, as latency is a weaker signal than a refusal. */
export const LATENCY_BACKOFF = 0.9;
/** A round trip before any success was timed. */
const DEFAULT_ROUND_TRIP_MS = 1000;

export class AdaptiveLimit {
	private limitValue: number;
	private slowStart = true;
	readonly places = new Places();
	/** Most sends in flight since the last decrease: the limit grows only while it is used. */
	private peakInFlight = 0;
	private growthCredit = 0;
	private readonly refusalHold = new RefusalHold();
	private firstThrottleAt: number | undefined;
	/** Sends started before (or at) this moment cause no further decrease (one decrease per round trip). */
	private lastDecreaseAt = -Infinity;
	private readonly batches = new SlowStartBatches();
	private readonly successes = new Successes(INITIAL_LIMIT);
	private readonly refusals = new RefusalJudge(INITIAL_LIMIT);

	constructor(private readonly cap: number) {
		this.limitValue = Math.min(INITIAL_LIMIT, cap);
		this.successes.restart(this.limit);
	}

	get limit(): number {
		return Math.max(1, Math.floor(this.limitValue));
	}

	/** Whether a send may start now (a slow-start batch that may give way does so here). */
	mayStart(now: number): boolean {
		if (this.places.taken(now) >= this.limit) return false;
		return !this.slowStart || this.batches.open(now);
	}

	/** The earliest time a send may start if no answer comes first (`now` when one may); undefined: only an answer makes room. */
	startsAt(now: number): number | undefined {
		const placeAt = this.places.freeAt(now, this.limit);
		if (placeAt === undefined) return undefined;
		return this.slowStart ? Math.max(placeAt, this.batches.opensAt(now)) : placeAt;
	}

	/** A send takes a place now; what it returns goes back with its answer. */
	sent(now: number): SentAt {
		const load = this.places.take();
		this.peakInFlight = Math.max(this.peakInFlight, load);
		return { at: now, limit: this.limit, load, batch: this.batches.sent() };
	}

	/** A send came back with `outcome`: its place is free (a refused one after a round trip). */
	answered(sent: SentAt, outcome: SendOutcome, now: number): void {
		this.places.free(now, isRefusal(outcome) ? sent.at + this.roundTripMs() : undefined);
		this.batches.answered(sent.batch, now, now - sent.at);
		// Growth needs evidence that the limit is what holds sends back (TCP grows its window only while
		// it is used): a good part of it was in flight at once since the last decrease.
		const busy = (1 + SLOW_START_STEP) * this.peakInFlight >= this.limitValue;
		if (outcome.kind === 'success' || isRefusal(outcome)) this.judgeRefusals(outcome, sent, now);
		if (isRefusal(outcome)) return;
		this.adapt(outcome, sent, busy, now);
	}

	/** One round trip as far as known: the lowest latency of a success, else `fallbackMs`. */
	private roundTripMs(fallbackMs = DEFAULT_ROUND_TRIP_MS): number {
		const baseline = this.successes.baselineMs;
		return Number.isFinite(baseline) ? baseline : fallbackMs;
	}

	/** Counts the answer into its refusal sample: growth it held back, or a sample that says "full". */
	private judgeRefusals(outcome: SendOutcome, sent: SentAt, now: number): void {
		const verdict = this.refusals.answered(sent.load, outcome.kind !== 'success', this.limit);
		if ('grow' in verdict) {
			if (verdict.grow > 0 && this.slowStart) this.limitValue = Math.min(this.cap, this.limitValue + verdict.grow);
			return;
		}
		if (this.decrease(now, sent.at, verdict.full)) this.refusalHold.start(now, this.limit, sent.limit);
		this.refusals.sampleSize = this.limit;
	}

	private adapt(outcome: SendOutcome, sent: SentAt, busy: boolean, now: number): void {
		switch (outcome.kind) {
			case 'success': {
				if (this.successes.add(now, Math.max(0, outcome.latencyMs), this.limit)) {
					this.decrease(now, sent.at, this.limitValue * LATENCY_BACKOFF);
					return;
				}
				if (busy) this.grow(now);
				return;
			}
			case 'throttled': {
				const sustained = this.sustainedConcurrency(now, sent.at);
				// Leaving slow start: back to the level before the last blind growth, the last one the service
				// took whole (TCP halves as it doubles per round trip), from the limit the send went out under.
				const target = this.slowStart
					? Math.min(this.limitValue, sent.limit) / (1 + SLOW_START_STEP)
					: sustained < 1
						? this.limitValue * BACKOFF
						: Math.min(sustained, this.limitValue * THROTTLE_BACKOFF);
				this.firstThrottleAt ??= now;
				if (this.decrease(now, sent.at, target)) this.refusalHold.start(now, this.limit, sent.limit);
				return;
			}
			case 'overloaded':
				this.decrease(now, sent.at, this.limitValue * BACKOFF);
		}
	}

	/** Slow start: +SLOW_START_STEP per success. After it: +1 once a limit's worth of successes came back. */
	private grow(now: number): void {
		if (this.slowStart && this.refusals.holdsGrowth) {
			this.refusals.pending += SLOW_START_STEP;
			return;
		}
		if (!this.slowStart && ++this.growthCredit < this.limit) return;
		this.growthCredit = 0;
		const next = Math.min(this.cap, Math.floor(this.limitValue) + (this.slowStart ? SLOW_START_STEP : 1));
		this.limitValue = this.refusalHold.allow(now, this.limitValue, next);
	}

	/**
	 * Sends the service sustains in flight (Little's law): the rate it accepted since the first refusal (a
	 * Retry-After pause and the burst after it both count) times the latency; before, the last round trip's.
	 */
	private sustainedConcurrency(now: number, startedAt: number): number {
		const roundTrip = Math.max(1, this.roundTripMs(now - startedAt));
		const span = this.firstThrottleAt === undefined ? 0 : now - this.firstThrottleAt;
		if (span < roundTrip) return this.successes.countSince(now - roundTrip);
		return this.successes.sustainedInFlight(now, span, roundTrip);
	}

	/** Lowers the limit to `target`, once per round trip: sends started before the last decrease do not count again. */
	private decrease(now: number, startedAt: number, target: number): boolean {
		this.slowStart = false;
		if (startedAt <= this.lastDecreaseAt) return false;
		this.limitValue = Math.max(1, Math.min(this.limitValue, target));
		this.lastDecreaseAt = now;
		this.peakInFlight = this.places.inFlight;
		this.growthCredit = 0;
		this.successes.restart(this.limit);
		return true;
	}
}
