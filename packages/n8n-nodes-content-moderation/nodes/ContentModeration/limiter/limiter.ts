/**
 * What one node run has in flight: requests and body bytes. Adaptive (default): aimd.ts's limit, sent in
 * rounds while it grows blindly (rounds.ts), one Retry-After pause shared by every new send (those in
 * flight finish), a byte budget. Fixed: exactly the given number and nothing else, as before. Time comes
 * from an injected clock (tests use a fake one).
 */
import { AimdLimit } from './aimd';
import type { SendOutcome, SentAt } from './aimd';
import { SlowStartRounds } from './rounds';
import { enqueue, once, type Waiter } from './waiters';

export interface LimiterClock {
	now(): number;
	/** Resolves after `ms` (n8n's sleep in the node). */
	sleep(ms: number): Promise<void>;
}

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

/** `pausedUntil`: epoch ms until which no new send starts (0: none). */
export interface LimiterSnapshot {
	limit: number;
	inFlight: number;
	bytesInFlight: number;
	pausedUntil: number;
}

/**
 * Body bytes (base64 images) an adaptive run holds at once. Peak RSS grows by about 3.6x a body in flight
 * (measured), so 64 MB is about 230 MB at most: what 5 in flight held with 10 MB images, while dozens of
 * ordinary photos still go in parallel. One larger body is sent alone.
 */
export const MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

export class RequestLimiter {
	/** Adaptive mode's limit (undefined: Fixed). */
	private readonly aimd: AimdLimit | undefined;
	private readonly rounds = new SlowStartRounds();
	/** Fixed: the limit; adaptive: the cap. */
	private readonly fixedLimit: number;
	private inFlightCount = 0;
	private bytesHeld = 0;
	private pausedUntilMs = 0;
	private readonly slotWaiters: Waiter[] = [];
	private readonly byteWaiters: Waiter[] = [];

	constructor(
		readonly settings: LimiterSettings,
		private readonly clock: LimiterClock,
	) {
		this.fixedLimit = Math.max(1, Math.floor(settings.maxLimit));
		this.aimd = settings.adaptive ? new AimdLimit(this.fixedLimit) : undefined;
	}

	/** Requests allowed in flight now (whole number). */
	get limit(): number {
		return this.aimd?.limit ?? this.fixedLimit;
	}

	snapshot(): LimiterSnapshot {
		const { limit, inFlightCount: inFlight, bytesHeld: bytesInFlight, pausedUntilMs: pausedUntil } = this;
		return { limit, inFlight, bytesInFlight, pausedUntil };
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
		return once(() => {
			this.bytesHeld -= bytes;
			this.drain();
		});
	}

	/** Waits (FIFO) until a send may start: below the limit and not paused. */
	async acquire(signal?: AbortSignal): Promise<Permit> {
		if (this.slotWaiters.length > 0 || !this.canStart()) {
			this.scheduleWake();
			await this.wait(this.slotWaiters, 0, signal);
		} else this.inFlightCount++;
		this.aimd?.sent(this.inFlightCount);
		const sent = { at: this.clock.now(), limit: this.limit, round: this.rounds.sent() };
		return { release: once((outcome: SendOutcome) => this.finish(outcome, sent)) };
	}

	private bytesFit(bytes: number): boolean {
		return this.bytesHeld === 0 || this.bytesHeld + bytes <= this.settings.maxBytesInFlight;
	}

	private canStart(): boolean {
		const now = this.clock.now();
		if (this.inFlightCount >= this.limit || now < this.pausedUntilMs) return false;
		return !this.aimd?.inSlowStart || this.rounds.open(now);
	}

	private wait(queue: Waiter[], bytes: number, signal?: AbortSignal): Promise<void> {
		return enqueue(queue, bytes, signal, () => this.drain());
	}

	/** Admits waiters in order while there is room. */
	private drain(): void {
		while (this.byteWaiters.length > 0 && this.bytesFit(this.byteWaiters[0].bytes)) {
			const waiter = this.byteWaiters.shift()!;
			this.bytesHeld += waiter.bytes;
			waiter.resolve();
		}
		if (this.slotWaiters.length > 0 && this.canStart()) this.scheduleAdmission();
		if (this.slotWaiters.length > 0) this.scheduleWake();
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
			if (this.slotWaiters.length > 0) this.scheduleWake();
		});
	}

	private wakeAt: number | undefined;

	/** While waiters wait for the pause's end (or a slow-start round's grace), one wake-up then. */
	private scheduleWake(): void {
		const now = this.clock.now();
		const opensAt = this.aimd?.inSlowStart ? this.rounds.opensAt() : undefined;
		const at = Math.max(this.pausedUntilMs, opensAt ?? 0);
		if (at <= now || this.wakeAt === at) return;
		this.wakeAt = at;
		void this.clock.sleep(at - now).then(() => {
			if (this.wakeAt === at) this.wakeAt = undefined;
			this.drain();
		});
	}

	private finish(outcome: SendOutcome, sent: SentAt & { round: number }): void {
		this.inFlightCount--;
		if (this.aimd) {
			const now = this.clock.now();
			this.rounds.answered(sent.round, now, now - sent.at);
			if (outcome.kind === 'throttled' && outcome.retryAfterMs !== undefined && outcome.retryAfterMs > 0) {
				this.pausedUntilMs = Math.max(this.pausedUntilMs, now + outcome.retryAfterMs);
			}
			this.aimd.answered(outcome, sent, now, this.inFlightCount);
		}
		this.drain();
	}
}
