/**
 * What one node run has in flight: requests and body bytes. Adaptive (default): aimd.ts's limit, one
 * Retry-After pause shared by every new send (those in flight finish), a byte budget. Fixed: exactly the
 * given number and nothing else, as before. Time comes from an injected clock (tests use a fake one).
 */
import { AimdLimit } from './aimd';
import type { SendOutcome, SentAt } from './aimd';

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

export class AbortedWait extends Error {}

interface Waiter {
	resolve: () => void;
	reject: (error: unknown) => void;
	bytes: number;
}

export class RequestLimiter {
	/** Adaptive mode's limit (undefined: Fixed). */
	private readonly aimd: AimdLimit | undefined;
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
		this.aimd?.sent(this.inFlightCount);
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
		this.inFlightCount--;
		if (this.aimd) {
			const now = this.clock.now();
			if (outcome.kind === 'throttled' && outcome.retryAfterMs !== undefined && outcome.retryAfterMs > 0) {
				this.pausedUntilMs = Math.max(this.pausedUntilMs, now + outcome.retryAfterMs);
			}
			this.aimd.answered(outcome, sent, now, this.inFlightCount);
		}
		this.drain();
	}
}
