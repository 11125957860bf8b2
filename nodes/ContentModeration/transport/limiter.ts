/**
 * How much of one node run is in flight at the service: requests, and bytes of request bodies.
 *
 * Adaptive (the default) is AIMD, as TCP congestion control:
 *   - slow start: from INITIAL_LIMIT, +1 per healthy response while the limit is in use (doubles per
 *     round trip), up to the user's cap;
 *   - additive increase after the first sign of trouble: +1 per round trip (1/limit per response);
 *   - multiplicative decrease on 429/503 (to what the service sustained: its success rate over the last
 *     second times the baseline latency, by Little's law; halving when nothing succeeded), on timeouts
 *     and resets (halving) and on a clear latency rise (x0.9);
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

/** Start of slow start: TCP's initial window (RFC 6928) is 10 segments for the same reason, one round trip of probing. */
export const INITIAL_LIMIT = 10;
/** Multiplicative decrease on timeouts and resets, and the floor of the decrease on 429/503. */
export const BACKOFF = 0.5;
/** Decrease on a clear latency rise: gentle, as latency is a weaker signal than a refusal. */
export const LATENCY_BACKOFF = 0.9;
/** "Clear latency rise": the smoothed latency above this multiple of the baseline (the lowest seen). */
export const LATENCY_RISE = 2;
/** How long the limit stays below a throttled level before probing above it again. */
export const HOLD_MS = 10_000;
/** Successes over this long (or since the first send) estimate the rate the service accepts. */
export const RATE_WINDOW_MS = 1000;

/**
 * Bytes of request bodies (base64 images) a run holds at once in adaptive mode. Peak memory grows by
 * about 3.6x a body while it is sent (measured), so 64 MB of bodies is about 230 MB of RSS at most: what
 * the old default (5 in flight) held with 10 MB images, while dozens of ordinary photos (under 1 MB)
 * still go in parallel. One body larger than this is sent alone.
 */
export const MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

export class AbortedWait extends Error {}

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
	private smoothedMs = 0;
	/** Completion times of recent successes, to estimate the rate the service accepts. */
	private successTimes: number[] = [];
	private firstSendAt: number | undefined;
	/** Most sends in flight since the last decrease: the limit grows only while it is used. */
	private peakInFlight = 0;
	/** Successes counted towards the next additive step. */
	private growthCredit = 0;
	private readonly slotWaiters: Waiter[] = [];
	private readonly byteWaiters: Waiter[] = [];

	constructor(
		readonly settings: LimiterSettings,
		private readonly clock: LimiterClock,
	) {
		const cap = Math.max(1, Math.floor(settings.maxLimit));
		this.limitValue = settings.adaptive ? Math.min(INITIAL_LIMIT, cap) : cap;
		this.slowStart = settings.adaptive;
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
		const startedAt = this.clock.now();
		this.firstSendAt ??= startedAt;
		let released = false;
		return {
			release: (outcome) => {
				if (released) return;
				released = true;
				this.finish(outcome, startedAt);
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
		while (this.slotWaiters.length > 0 && this.canStart()) {
			this.slotWaiters.shift()!.resolve();
			this.inFlightCount++;
		}
		if (this.slotWaiters.length > 0) this.schedulePauseEnd();
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

	private finish(outcome: SendOutcome, startedAt: number): void {
		// Growth needs evidence that the limit is what holds sends back (TCP grows its window only while
		// it is used): at least half of it was in flight at once since the last decrease.
		const busy = 2 * this.peakInFlight >= this.limitValue;
		this.inFlightCount--;
		if (this.settings.adaptive) this.adapt(outcome, startedAt, busy);
		this.drain();
	}

	private adapt(outcome: SendOutcome, startedAt: number, busy: boolean): void {
		const now = this.clock.now();
		const cap = Math.max(1, Math.floor(this.settings.maxLimit));
		switch (outcome.kind) {
			case 'success': {
				this.successTimes.push(now);
				if (this.successTimes.length > 1024) this.successTimes = this.successTimes.filter((t) => t > now - RATE_WINDOW_MS);
				const latency = Math.max(0, outcome.latencyMs);
				this.baselineMs = Math.min(latency, this.baselineMs);
				// The baseline drifts up slowly, so a service that became slower for good is not punished forever.
				if (latency > this.baselineMs) this.baselineMs += (latency - this.baselineMs) * 0.01;
				this.smoothedMs = this.smoothedMs === 0 ? latency : this.smoothedMs * 0.9 + latency * 0.1;
				if (this.smoothedMs > LATENCY_RISE * this.baselineMs && this.baselineMs > 0) {
					this.decrease(now, startedAt, this.limitValue * LATENCY_BACKOFF);
					return;
				}
				if (!busy) return;
				// Slow start: +1 per success. After it: +1 once a full limit's worth of successes came back.
				const step = 1;
				if (!this.slowStart) {
					this.growthCredit++;
					if (this.growthCredit < this.limit) return;
					this.growthCredit = 0;
				}
				let next = Math.min(cap, Math.floor(this.limitValue) + step);
				if (now < this.holdUntil) next = Math.min(next, Math.max(this.limitValue, this.ceiling));
				this.limitValue = next;
				return;
			}
			case 'throttled': {
				if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > 0) {
					this.pausedUntilMs = Math.max(this.pausedUntilMs, now + outcome.retryAfterMs);
				}
				// Little's law: the rate the service accepted times the round trip is the concurrency it sustains.
				const window = Math.min(RATE_WINDOW_MS, now - (this.firstSendAt ?? now));
				const accepted = this.successTimes.filter((t) => t > now - window).length;
				const sustained = window > 0 && Number.isFinite(this.baselineMs) ? (accepted / window) * this.baselineMs : 0;
				const target = sustained >= 1 ? Math.min(sustained, this.limitValue * 0.9) : this.limitValue * BACKOFF;
				if (this.decrease(now, startedAt, target)) {
					this.ceiling = Math.max(1, Math.floor(this.limitValue));
					this.holdUntil = now + HOLD_MS;
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
		return true;
	}
}
