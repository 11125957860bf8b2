/**
 * One service's limiter, shared by every node run in this n8n process that talks to it (registry.ts
 * finds it). It decides who may send: the shared adaptive limit (adaptiveLimit.ts says whether and when),
 * the Retry-After pause, and each node run's share (its cap, its cancel, Fixed or adaptive). Shares take
 * turns (waiters.ts), so a one-item execution does not wait behind a large run's queue. Time comes from
 * an injected clock (tests use a fake one).
 */
import type { Clock } from '../helpers/clock';
import { AdaptiveLimit } from './adaptiveLimit';
import { retryAfterOf, type SendOutcome, type SentAt } from './outcome';
import { AbortedWait, enqueue, once, Turns, type Waiter } from './waiters';

export interface LimiterSettings {
	/** The longest Retry-After pause: no longer than an item may wait for one. */
	maxPauseMs: number;
}

/** What is a node run's own. */
export interface ShareSettings {
	/** Adaptive: the shared limit and at most `cap` of it. Fixed: exactly `cap` (outside the shared limit). */
	adaptive: boolean;
	cap: number;
}

/** A granted send; `release` once its answer (or failure) is in. */
export interface Permit {
	release(outcome: SendOutcome): void;
}

/** One node run's share of the service's limiter. */
export interface LimiterShare {
	/** Waits (in turn) until a send may start; rejects with AbortedWait when the run is cancelled. */
	acquire(): Promise<Permit>;
}

/** `pausedUntil`: epoch ms until which no new send starts (0: none). */
export interface LimiterSnapshot {
	limit: number;
	inFlight: number;
	waiting: number;
	pausedUntil: number;
}

/** What an admission hands the waiter: for an adaptive send, what the limit gets back with its answer. */
type Admission = SentAt | undefined;

interface Share extends ShareSettings {
	readonly queue: Array<Waiter<Admission>>;
	inFlight: number;
	readonly permits: Set<Permit>;
}

/** The cap of the shared limit: shares keep their own (Max Concurrency) below it. */
export const SHARED_CAP = 1000;

export class ServiceLimiter {
	private readonly adaptiveLimit = new AdaptiveLimit(SHARED_CAP);
	private pausedUntilMs = 0;
	private readonly turns = new Turns<Admission, Share>();
	private admissionScheduled = false;
	private wakeAt: number | undefined;
	/** The last time anything was sent or answered. */
	lastActiveAt: number;

	constructor(
		private readonly clock: Clock,
		private readonly settings: LimiterSettings,
	) {
		this.lastActiveAt = clock.now();
	}

	/** Adaptive sends allowed in flight now (whole number). */
	get limit(): number {
		return this.adaptiveLimit.limit;
	}

	snapshot(): LimiterSnapshot {
		const { limit, pausedUntilMs: pausedUntil } = this;
		return { limit, inFlight: this.adaptiveLimit.inFlight, waiting: this.turns.waiting, pausedUntil };
	}

	/** Nothing in flight or waiting, and nothing sent or answered for `idleMs`. */
	isIdle(now: number, idleMs: number): boolean {
		return this.turns.waiting === 0 && now - this.lastActiveAt >= idleMs && this.adaptiveLimit.isIdle(now);
	}

	/** A node run joins; when `signal` aborts, its waiters leave and its places are given back at once. */
	openShare(settings: ShareSettings, signal?: AbortSignal): LimiterShare {
		const share: Share = { ...settings, cap: Math.max(1, Math.floor(settings.cap)), queue: [], inFlight: 0, permits: new Set() };
		signal?.addEventListener('abort', () => {
			for (const permit of [...share.permits]) permit.release({ kind: 'neutral' });
		}, { once: true });
		return { acquire: () => this.acquire(share, signal) };
	}

	private async acquire(share: Share, signal?: AbortSignal): Promise<Permit> {
		if (signal?.aborted) throw new AbortedWait('cancelled while waiting to send');
		let sent: Admission;
		if (this.turns.waiting === 0 && this.mayStart(share)) sent = this.start(share);
		else {
			// The admission that resolves the waiter starts it; another share may have room now.
			const waiting = enqueue(this.turns.queueOf(share), 0, signal, () => this.drain());
			this.drain();
			sent = await waiting;
		}
		const permit: Permit = { release: once((outcome: SendOutcome) => this.finish(share, permit, outcome, sent)) };
		share.permits.add(permit);
		return permit;
	}

	private mayStart(share: Share): boolean {
		const now = this.clock.now();
		if (share.inFlight >= share.cap || now < this.pausedUntilMs) return false;
		return !share.adaptive || this.adaptiveLimit.mayStart(now);
	}

	/** Takes a place for `share`. */
	private start(share: Share): Admission {
		const now = this.clock.now();
		share.inFlight++;
		this.lastActiveAt = now;
		return share.adaptive ? this.adaptiveLimit.sent(now) : undefined;
	}

	/**
	 * Waiting sends start on the next turn of the event loop, not inside the answer that made room:
	 * answers that arrive together (a 429 among successes) are all seen first, so a refusal pauses the
	 * sends that the other answers would otherwise have let out.
	 */
	private drain(): void {
		if (this.turns.waiting > 0 && !this.admissionScheduled) {
			this.admissionScheduled = true;
			void this.clock.sleep(0).then(() => {
				this.admissionScheduled = false;
				for (let next = this.turns.next((s) => this.mayStart(s)); next; next = this.turns.next((s) => this.mayStart(s))) {
					next.waiter.resolve(this.start(next.party));
				}
				if (this.turns.waiting > 0) this.scheduleWake();
			});
		}
		if (this.turns.waiting > 0) this.scheduleWake();
	}

	/** While sends wait for the pause's end or for the limit to make room by time alone, one wake-up then. */
	private scheduleWake(): void {
		const now = this.clock.now();
		const at = now < this.pausedUntilMs ? this.pausedUntilMs : this.adaptiveLimit.startsAt(now);
		if (at === undefined || at <= now || this.wakeAt === at) return;
		this.wakeAt = at;
		void this.clock.sleep(at - now).then(() => {
			if (this.wakeAt === at) this.wakeAt = undefined;
			this.drain();
		});
	}

	private finish(share: Share, permit: Permit, outcome: SendOutcome, sent: Admission): void {
		share.inFlight--;
		share.permits.delete(permit);
		const now = this.clock.now();
		this.lastActiveAt = now;
		const retryAfterMs = retryAfterOf(outcome);
		if (retryAfterMs !== undefined) {
			// No longer than an item may wait: the item told to wait longer fails at once, and the other
			// shares ask again by then (and fail saying why) rather than wait silently for an hour.
			this.pausedUntilMs = Math.max(this.pausedUntilMs, now + Math.min(retryAfterMs, this.settings.maxPauseMs));
		}
		if (sent) this.adaptiveLimit.answered(sent, outcome, now);
		this.drain();
	}
}
