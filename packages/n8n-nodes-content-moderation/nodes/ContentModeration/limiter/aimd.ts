/**
 * The adaptive limit of one service (shared by the node runs of this process): AIMD, as TCP congestion control.
 *   - slow start: from INITIAL_LIMIT, +SLOW_START_STEP per healthy response while the limit is in use
 *     (x3 per round trip), up to the user's cap;
 *   - additive increase after the first sign of trouble: +1 per round trip (1/limit per response);
 *   - multiplicative decrease on 429/503 with a Retry-After (the service said "wait"): leaving slow start,
 *     back to the previous round's level (/3); later, to the concurrency the service sustains (accepted
 *     rate x latency, accepted.ts; at most x0.9; halving when nothing was accepted); on timeouts and
 *     resets halving; on a clear latency rise x0.9;
 *   - 429/503 without one are judged per round (refusals.ts): sporadic ones change nothing, a round that
 *     says "full" brings the limit to what that round served;
 *   - after a throttle the limit holds at most one above that level for HOLD_MS before it probes
 *     higher again, so a steady rate limit costs one refusal per HOLD_MS at most, not one per sawtooth.
 * Pure: the caller gives the time. Admission (who may send now, the pause, bytes) is limiter.ts.
 */
import { AcceptedLog } from './accepted';
import { isRefusal, type SendOutcome, type SentAt } from './outcome';
import { RefusalJudge } from './refusals';

/**
 * Start of slow start: a probe a service on any paid plan takes (the bench's 50/s limit takes 20 in
 * its first round trip), large enough that a fast service is reached in four round trips (20, 60, 180, 540).
 */
export const INITIAL_LIMIT = 20;
/** Slow start adds this per healthy response: x3 per round trip, so a fast service is reached in a few. */
export const SLOW_START_STEP = 2;
/** Multiplicative decrease on timeouts and resets, and on a 429/503 when nothing was accepted. */
export const BACKOFF = 0.5;
/** Decrease on a 429/503 when the service sustains more than that. */
export const THROTTLE_BACKOFF = 0.9;
/** Decrease on a clear latency rise: gentle, as latency is a weaker signal than a refusal. */
export const LATENCY_BACKOFF = 0.9;
/** "Clear latency rise": a round's fastest answer above this multiple of the baseline (the lowest seen)... */
export const LATENCY_RISE = 2;
/** ...and at least this much slower, so that jitter of a very fast service is not a rise. */
export const MIN_LATENCY_RISE_MS = 50;
/** How long the limit stays at most one above the level a throttle set, before probing (x2 per refusal). */
export const HOLD_MS = 10_000;
export const MAX_HOLD_MS = 60_000;

export class AimdLimit {
	private limitValue: number;
	private slowStart = true;
	/** No growth above this until `holdUntil` (set by a throttle). */
	private ceiling = Infinity;
	private holdUntil = 0;
	/** The limit the last refused send went out under; passing it without a refusal resets the hold. */
	private refusedLevel = Infinity;
	private firstThrottleAt: number | undefined;
	/** Sends started before (or at) this moment do not cause another decrease (one decrease per round trip). */
	private lastDecreaseAt = -Infinity;
	private baselineMs = Infinity;
	/** Recent successes, to estimate the rate the service accepts. */
	private readonly accepted = new AcceptedLog();
	/** Most sends in flight since the last decrease: the limit grows only while it is used. */
	private peakInFlight = 0;
	/** Successes counted towards the next additive step. */
	private growthCredit = 0;
	private holdMs = HOLD_MS;
	private roundCount = 0;
	private roundMinMs = Infinity;
	/** Answers per latency round: the limit when the round began. */
	private roundSize = INITIAL_LIMIT;
	private readonly refusals = new RefusalJudge(INITIAL_LIMIT);

	/** `cap`: the user's Max Concurrency. */
	constructor(private readonly cap: number) {
		this.limitValue = Math.min(INITIAL_LIMIT, cap);
		this.roundSize = this.limit;
	}

	/** Requests allowed in flight now (whole number). */
	get limit(): number {
		return Math.max(1, Math.floor(this.limitValue));
	}

	/** Whether the limit still grows blindly (no sign of trouble yet). */
	get inSlowStart(): boolean {
		return this.slowStart;
	}

	/** One round trip as far as known: the lowest latency of a success (1 s before the first). */
	get roundTripMs(): number {
		return Number.isFinite(this.baselineMs) ? this.baselineMs : 1000;
	}

	/** A send started with `inFlight` sends now out. */
	sent(inFlight: number): void {
		this.peakInFlight = Math.max(this.peakInFlight, inFlight);
	}

	/** A send came back with `outcome`; `inFlight` counts the sends still out. */
	answered(outcome: SendOutcome, sent: SentAt, now: number, inFlight: number): void {
		// Growth needs evidence that the limit is what holds sends back (TCP grows its window only while
		// it is used): a good part of it was in flight at once since the last decrease.
		const busy = (1 + SLOW_START_STEP) * this.peakInFlight >= this.limitValue;
		if (outcome.kind === 'success' || isRefusal(outcome)) this.judgeRefusals(outcome, sent, now, inFlight);
		if (isRefusal(outcome)) return;
		this.adapt(outcome, sent, busy, now, inFlight);
	}

	/** Counts the answer into its refusal round (refusals.ts): growth it held back, or a round that says "full". */
	private judgeRefusals(outcome: SendOutcome, sent: SentAt, now: number, inFlight: number): void {
		const verdict = this.refusals.answered(sent.load, outcome.kind !== 'success', this.limit);
		if ('grow' in verdict) {
			if (verdict.grow > 0 && this.slowStart) this.limitValue = Math.min(this.cap, this.limitValue + verdict.grow);
			return;
		}
		if (this.decrease(now, sent.at, inFlight, verdict.full)) this.hold(now, sent.limit);
		this.refusals.restart(this.limit);
	}

	private adapt(outcome: SendOutcome, sent: SentAt, busy: boolean, now: number, inFlight: number): void {
		const startedAt = sent.at;
		switch (outcome.kind) {
			case 'success': {
				const latency = Math.max(0, outcome.latencyMs);
				this.accepted.add(now, latency);
				this.baselineMs = Math.min(latency, this.baselineMs);
				// A clear rise: even the fastest answer of a round (a limit's worth of answers) took more than
				// LATENCY_RISE x the baseline. The fastest, so that this process's own queueing (answers
				// handled one after another) does not count as the service slowing down.
				this.roundMinMs = Math.min(this.roundMinMs, latency);
				if (++this.roundCount >= this.roundSize) {
					const roundMin = this.roundMinMs;
					const rise = roundMin - this.baselineMs >= MIN_LATENCY_RISE_MS && roundMin > LATENCY_RISE * this.baselineMs;
					// The baseline drifts up a little per round, so a service that became slower for good is
					// not held against it forever.
					this.baselineMs += (roundMin - this.baselineMs) * 0.05;
					this.startRound();
					if (rise) {
						this.decrease(now, startedAt, inFlight, this.limitValue * LATENCY_BACKOFF);
						return;
					}
				}
				if (!busy) return;
				// Slow start: +SLOW_START_STEP per success. After it: +1 once a limit's worth of successes came back.
				const step = this.slowStart ? SLOW_START_STEP : 1;
				if (!this.slowStart) {
					this.growthCredit++;
					if (this.growthCredit < this.limit) return;
					this.growthCredit = 0;
				}
				if (this.slowStart && this.refusals.holdsGrowth) {
					this.refusals.defer(step);
					return;
				}
				let next = Math.min(this.cap, Math.floor(this.limitValue) + step);
				if (now < this.holdUntil) next = Math.min(next, Math.max(this.limitValue, this.ceiling));
				if (next >= this.refusedLevel + 2) this.holdMs = HOLD_MS; // past the refused level: it allows more again
				this.limitValue = next;
				return;
			}
			case 'throttled': {
				const sustained = this.sustainedConcurrency(now, startedAt);
				// Leaving slow start the limit had just grown blindly: back to the level of the round before,
				// the last one the service took whole (TCP halves for the same reason: it doubles per round).
				// From the limit the refused send went out under: answers of its round grew it since.
				const target = this.slowStart
					? Math.min(this.limitValue, sent.limit) / (1 + SLOW_START_STEP)
					: sustained < 1
						? this.limitValue * BACKOFF
						: Math.min(sustained, this.limitValue * THROTTLE_BACKOFF);
				this.firstThrottleAt ??= now;
				if (this.decrease(now, startedAt, inFlight, target)) this.hold(now, sent.limit);
				return;
			}
			case 'overloaded':
				this.decrease(now, startedAt, inFlight, this.limitValue * BACKOFF);
				return;
			case 'neutral':
				return;
		}
	}

	/**
	 * Requests the service sustains in flight, by Little's law: the rate it accepted since the first
	 * refusal (so a Retry-After pause and the burst after it both count) times the latency. Before a
	 * first refusal, what it accepted in the last round trip.
	 */
	private sustainedConcurrency(now: number, startedAt: number): number {
		const roundTrip = Number.isFinite(this.baselineMs) ? Math.max(1, this.baselineMs) : Math.max(1, now - startedAt);
		const span = this.firstThrottleAt === undefined ? 0 : now - this.firstThrottleAt;
		if (span < roundTrip) return this.accepted.countSince(now - roundTrip);
		return this.accepted.sustainedInFlight(now, span, roundTrip);
	}

	/**
	 * After a decrease for refusals: at most one above the new level for the hold; each further refusal
	 * doubles the hold, so a steady limit costs a refusal rarely.
	 */
	private hold(now: number, refusedLevel: number): void {
		if (this.holdUntil > 0) this.holdMs = Math.min(MAX_HOLD_MS, this.holdMs * 2);
		this.ceiling = this.limit + 1;
		this.refusedLevel = refusedLevel;
		this.holdUntil = now + this.holdMs;
	}

	/** Lowers the limit to `target`, once per round trip: sends started before the last decrease do not count again. */
	private decrease(now: number, startedAt: number, inFlight: number, target: number): boolean {
		this.slowStart = false;
		if (startedAt <= this.lastDecreaseAt) return false;
		this.limitValue = Math.max(1, Math.min(this.limitValue, target));
		this.lastDecreaseAt = now;
		this.peakInFlight = inFlight;
		this.growthCredit = 0;
		this.startRound();
		return true;
	}

	private startRound(): void {
		this.roundCount = 0;
		this.roundMinMs = Infinity;
		this.roundSize = this.limit;
	}
}
