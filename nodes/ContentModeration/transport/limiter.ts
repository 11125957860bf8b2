/**
 * How much of one node run is in flight at the service: requests, and bytes of request bodies.
 *
 * Adaptive (the default) is AIMD, as TCP congestion control:
 *   - slow start: from INITIAL_LIMIT, +SLOW_START_STEP per healthy response while the limit is in use
 *     (x3 per round trip), up to the user's cap;
 *   - additive increase after the first sign of trouble: +1 per round trip (1/limit per response);
 *   - multiplicative decrease on 429/503: leaving slow start, back to the previous round's level (/3);
 *     later, to what the service accepted in the last round trip (the concurrency it sustains, by
 *     Little's law; at most x0.9; halving when nothing was accepted); on timeouts and resets halving;
 *     on a clear latency rise x0.9;
 *   - a 429/503 with Retry-After pauses every new send of the run until then (requests in flight finish);
 *   - after a throttle the limit holds below the level that was throttled for HOLD_MS before it probes
 *     higher again, so a steady rate limit costs one pause per HOLD_MS at most, not one per sawtooth.
 * Fixed: exactly the given number, nothing adapted, no shared pause and no byte budget (what a workflow
 * saved with an explicit Concurrency did before).
 *
 * Pure: time comes from an injected clock, so tests drive it with a fake one.
 */

export interface LimiterClock {
	now(): number;
	/** Resolves after `ms` (n8n's sleep in the node). */
	sleep(ms: number): Promise<void>;
}

/** What one finished send tells the limiter about the service's load. */
export type SendOutcome =
	| { kind: 'success'; latencyMs: number }
	/** 429, or 503: the service asks to slow down; `retryAfterMs` when it said for how long. */
	| { kind: 'throttled'; retryAfterMs?: number }
	/** A timeout or a reset connection: the service may be overloaded. */
	| { kind: 'overloaded' }
	/** Says nothing about load (a 4xx, a refused connection, a cancelled send). */
	| { kind: 'neutral' };

export interface LimiterSettings {
	adaptive: boolean;
	/** Adaptive: the cap the limit never passes. Fixed: the limit. */
	maxLimit: number;
	/** Bytes of request bodies held at once (adaptive); one body larger than this still goes alone. */
	maxBytesInFlight: number;
}

/** A granted send; `release` once its answer (or failure) is in. */
export interface Permit {
	release(outcome: SendOutcome): void;
}

export interface LimiterSnapshot {
	limit: number;
	inFlight: number;
	bytesInFlight: number;
	/** Epoch ms until which no new send starts (0: none). */
	pausedUntil: number;
}

/**
 * Start of slow start: a probe a service on any paid plan takes (the bench's 50/s limit takes 20 in
 * its first round trip), large enough that a fast service is reached in four round trips (20, 60, 180, 500).
 */
export const INITIAL_LIMIT = 20;
/** Slow start adds this per healthy response: x3 per round trip, so a fast service is reached in a few. */
export const SLOW_START_STEP = 2;
/** Multiplicative decrease on timeouts and resets, and on a 429/503 when nothing was accepted. */
export const BACKOFF = 0.5;
/** Decrease on a 429/503 when the service accepted more than that in the last round trip. */
export const THROTTLE_BACKOFF = 0.9;
/** Decrease on a clear latency rise: gentle, as latency is a weaker signal than a refusal. */
export const LATENCY_BACKOFF = 0.9;
/** "Clear latency rise": a round's fastest answer above this multiple of the baseline (the lowest seen)... */
export const LATENCY_RISE = 2;
/** ...and at least this much slower, so that jitter of a very fast service is not a rise. */
export const MIN_LATENCY_RISE_MS = 50;
/** How long the limit stays below a throttled level before probing above it again (doubled per refusal). */
export const HOLD_MS = 10_000;
export const MAX_HOLD_MS = 60_000;

/**
 * Bytes of request bodies (base64 images) a run holds at once in adaptive mode. Peak memory grows by
 * about 3.6x a body while it is sent (measured), so 64 MB of bodies is about 230 MB of RSS at most: what
 * the old default (5 in flight) held with 10 MB images, while dozens of ordinary photos (under 1 MB)
 * still go in parallel. One body larger than this is sent alone.
 */
export const MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

export class AbortedWait extends Error {}

interface SentAt {
	at: number;
	/** The limit the send went out under. */
	limit: number;
}

interface Waiter {
	resolve: () => void;
	reject: (error: unknown) => void;
	bytes: number;
}

export class RequestLimiter {
	private limitValue: number;
	private inFlightCount = 0;
	private bytesHeld = 0;
	private pausedUntilMs = 0;
	private slowStart: boolean;
	/** No growth above this until `holdUntil` (set by a throttle). */
	private ceiling = Infinity;
	private holdUntil = 0;
	/** Sends started before (or at) this moment do not cause another decrease (one decrease per round trip). */
	private lastDecreaseAt = -Infinity;
	private baselineMs = Infinity;
	/** Completion times of recent successes, to estimate the rate the service accepts. */
	private successTimes: number[] = [];
	/** Most sends in flight since the last decrease: the limit grows only while it is used. */
	private peakInFlight = 0;
	/** Successes counted towards the next additive step. */
	private growthCredit = 0;
	private holdMs = HOLD_MS;
	private roundCount = 0;
	private roundMinMs = Infinity;
	/** Answers per latency round: the limit when the round began. */
	private roundSize = INITIAL_LIMIT;
	private readonly slotWaiters: Waiter[] = [];
	private readonly byteWaiters: Waiter[] = [];

	constructor(
		readonly settings: LimiterSettings,
		private readonly clock: LimiterClock,
	) {
		const cap = Math.max(1, Math.floor(settings.maxLimit));
		this.limitValue = settings.adaptive ? Math.min(INITIAL_LIMIT, cap) : cap;
		this.slowStart = settings.adaptive;
		this.roundSize = this.limit;
	}

	/** Requests allowed in flight now (whole number). */
	get limit(): number {
		return Math.max(1, Math.floor(this.limitValue));
	}

	snapshot(): LimiterSnapshot {
		return {
			limit: this.limit,
			inFlight: this.inFlightCount,
			bytesInFlight: this.bytesHeld,
			pausedUntil: this.pausedUntilMs,
		};
	}

	/**
	 * Waits for room for `bytes` of body (FIFO; nothing to wait for in Fixed mode) and returns the release.
	 * Taken before a large body is built, so a grown limit cannot hold many large bodies at once.
	 */
	async reserveBytes(bytes: number, signal?: AbortSignal): Promise<() => void> {
		if (!this.settings.adaptive || bytes <= 0) return () => {};
		if (this.byteWaiters.length > 0 || !this.bytesFit(bytes)) {
			await this.wait(this.byteWaiters, bytes, signal);
		} else this.bytesHeld += bytes;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.bytesHeld -= bytes;
			this.drain();
		};
	}

	/** Waits (FIFO) until a send may start: below the limit and not paused. */
	async acquire(signal?: AbortSignal): Promise<Permit> {
		if (this.slotWaiters.length > 0 || !this.canStart()) {
			this.schedulePauseEnd();
			await this.wait(this.slotWaiters, 0, signal);
		} else this.inFlightCount++;
		this.peakInFlight = Math.max(this.peakInFlight, this.inFlightCount);
		const sent = { at: this.clock.now(), limit: this.limit };
		let released = false;
		return {
			release: (outcome) => {
				if (released) return;
				released = true;
				this.finish(outcome, sent);
			},
		};
	}

	private bytesFit(bytes: number): boolean {
		return this.bytesHeld === 0 || this.bytesHeld + bytes <= this.settings.maxBytesInFlight;
	}

	private canStart(): boolean {
		return this.inFlightCount < this.limit && this.clock.now() >= this.pausedUntilMs;
	}

	private wait(queue: Waiter[], bytes: number, signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) return Promise.reject(new AbortedWait('cancelled while waiting to send'));
		return new Promise<void>((resolve, reject) => {
			const waiter: Waiter = { resolve, reject, bytes };
			const onAbort = () => {
				const at = queue.indexOf(waiter);
				if (at >= 0) queue.splice(at, 1);
				reject(new AbortedWait('cancelled while waiting to send'));
				this.drain();
			};
			waiter.resolve = () => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			queue.push(waiter);
		});
	}

	/** Admits waiters in order while there is room. */
	private drain(): void {
		while (this.byteWaiters.length > 0 && this.bytesFit(this.byteWaiters[0].bytes)) {
			const waiter = this.byteWaiters.shift()!;
			this.bytesHeld += waiter.bytes;
			waiter.resolve();
		}
		if (this.slotWaiters.length > 0 && this.canStart()) this.scheduleAdmission();
		if (this.slotWaiters.length > 0) this.schedulePauseEnd();
	}

	private admissionScheduled = false;

	/**
	 * Waiting sends start on the next turn of the event loop, not inside the answer that made room:
	 * answers that arrive together (a 429 among successes) are all seen first, so a refusal pauses the
	 * sends that its round's successes would otherwise have let out.
	 */
	private scheduleAdmission(): void {
		if (this.admissionScheduled) return;
		this.admissionScheduled = true;
		void this.clock.sleep(0).then(() => {
			this.admissionScheduled = false;
			while (this.slotWaiters.length > 0 && this.canStart()) {
				this.slotWaiters.shift()!.resolve();
				this.inFlightCount++;
			}
			if (this.slotWaiters.length > 0) this.schedulePauseEnd();
		});
	}

	private pauseTimer: number | undefined;

	/** While paused with waiters, one wake-up at the end of the pause. */
	private schedulePauseEnd(): void {
		const wait = this.pausedUntilMs - this.clock.now();
		if (wait <= 0 || this.pauseTimer === this.pausedUntilMs) return;
		this.pauseTimer = this.pausedUntilMs;
		void this.clock.sleep(wait).then(() => {
			if (this.pauseTimer === this.pausedUntilMs) this.pauseTimer = undefined;
			this.drain();
		});
	}

	private finish(outcome: SendOutcome, sent: SentAt): void {
		// Growth needs evidence that the limit is what holds sends back (TCP grows its window only while
		// it is used): a good part of it was in flight at once since the last decrease.
		const busy = (1 + SLOW_START_STEP) * this.peakInFlight >= this.limitValue;
		this.inFlightCount--;
		if (this.settings.adaptive) this.adapt(outcome, sent, busy);
		this.drain();
	}

	private adapt(outcome: SendOutcome, sent: SentAt, busy: boolean): void {
		const now = this.clock.now();
		const startedAt = sent.at;
		const cap = Math.max(1, Math.floor(this.settings.maxLimit));
		switch (outcome.kind) {
			case 'success': {
				this.successTimes.push(now);
				if (this.successTimes.length > 2 * cap + 64) {
					this.successTimes = this.successTimes.filter((t) => t > now - Math.max(1, this.baselineMs));
				}
				const latency = Math.max(0, outcome.latencyMs);
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
						this.decrease(now, startedAt, this.limitValue * LATENCY_BACKOFF);
						return;
					}
				}
				if (!busy) return;
				// Slow start: +1 per success. After it: +1 once a full limit's worth of successes came back.
				const step = this.slowStart ? SLOW_START_STEP : 1;
				if (!this.slowStart) {
					this.growthCredit++;
					if (this.growthCredit < this.limit) return;
					this.growthCredit = 0;
				}
				let next = Math.min(cap, Math.floor(this.limitValue) + step);
				if (now < this.holdUntil) next = Math.min(next, Math.max(this.limitValue, this.ceiling));
				// Past the throttled level without a refusal: the service allows more again.
				if (next >= this.ceiling + 2) this.holdMs = HOLD_MS;
				this.limitValue = next;
				return;
			}
			case 'throttled': {
				if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > 0) {
					this.pausedUntilMs = Math.max(this.pausedUntilMs, now + outcome.retryAfterMs);
				}
				// What the service accepted over the last round trip is the concurrency it sustains now
				// (Little's law: its rate times the round trip); halve when nothing was accepted.
				const roundTrip = Number.isFinite(this.baselineMs) ? Math.max(1, this.baselineMs) : now - startedAt;
				const accepted = this.successTimes.filter((t) => t > now - roundTrip).length;
				// Leaving slow start the limit had just grown blindly: back to the level of the round before,
				// the last one the service took whole (TCP halves for the same reason: it doubles per round).
				// From the limit the refused send went out under: answers of its round grew it since.
				const target = this.slowStart
					? Math.min(this.limitValue, sent.limit) / (1 + SLOW_START_STEP)
					: accepted < 1
						? this.limitValue * BACKOFF
						: Math.min(accepted, this.limitValue * THROTTLE_BACKOFF);
				if (this.decrease(now, startedAt, target)) {
					// Grow back up to just below the level the refused request went out under, and hold there;
					// each further refusal doubles the hold, so a steady limit costs a pause rarely.
					if (this.holdUntil > 0) this.holdMs = Math.min(MAX_HOLD_MS, this.holdMs * 2);
					this.ceiling = Math.max(this.limit + 1, sent.limit - 1);
					this.holdUntil = now + this.holdMs;
				}
				return;
			}
			case 'overloaded':
				this.decrease(now, startedAt, this.limitValue * BACKOFF);
				return;
			case 'neutral':
				return;
		}
	}

	/** Lowers the limit to `target`, once per round trip: sends started before the last decrease do not count again. */
	private decrease(now: number, startedAt: number, target: number): boolean {
		this.slowStart = false;
		if (startedAt <= this.lastDecreaseAt) return false;
		this.limitValue = Math.max(1, Math.min(this.limitValue, target));
		this.lastDecreaseAt = now;
		this.peakInFlight = this.inFlightCount;
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
