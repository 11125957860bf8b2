/** One service's limiter, shared by this process's node runs that talk to it; their shares take turns. */
import type { Clock } from '../helpers/clock';
import { AdaptiveLimit } from './adaptiveLimit';
import { ByteBudget, bytesInTurn } from './bytes';
import { retryAfterOf, type SendOutcome, type SentAt } from './outcome';
import { AbortedWait, once, Turns, type Waiter } from './waiters';

export interface LimiterSettings {
	/** The longest Retry-After pause: no longer than an item may wait for one. */
	maxPauseMs: number;
}

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
	/** Waits (in turn) for a place and, adaptive, `bodyBytes` of the budget; rejects with AbortedWait on cancel. */
	acquire(bodyBytes?: number): Promise<Permit>;
}

/** What an admission hands the waiter: for an adaptive send, what the limit gets back with its answer. */
type Admission = { sent: SentAt | undefined; releaseBytes: () => void };

interface Share extends ShareSettings {
	readonly queue: Array<Waiter<Admission>>;
	inFlight: number;
}

/** The cap of the shared limit: shares keep their own (Max Concurrency) below it. */
export const SHARED_CAP = 1000;

export class ServiceLimiter {
	private readonly adaptiveLimit = new AdaptiveLimit(SHARED_CAP);
	private pausedUntilMs = 0;
	private readonly turns = new Turns<Admission, Share>();
	private admissionScheduled = false;
	private wakeAt: number | undefined;
	/** Sends of every run in flight: a Fixed run's take no adaptive place, but the limiter is not idle while they are out. */
	private sending = 0;
	lastActiveAt: number;

	constructor(
		private readonly clock: Clock,
		private readonly settings: LimiterSettings,
		private readonly bytes = new ByteBudget(),
	) {
		this.lastActiveAt = clock.now();
	}

	/** Adaptive sends allowed in flight now (whole number). */
	get limit(): number {
		return this.adaptiveLimit.limit;
	}

	/** `pausedUntil`: epoch ms until which no new send starts (0: none). */
	snapshot() {
		const { limit, pausedUntilMs: pausedUntil } = this;
		return { limit, inFlight: this.adaptiveLimit.places.inFlight, waiting: this.turns.waiting, pausedUntil };
	}

	/** Nothing in flight or waiting, and nothing sent or answered for `idleMs`. */
	isIdle(now: number, idleMs: number): boolean {
		return (
			this.sending === 0 &&
			this.turns.waiting === 0 &&
			now - this.lastActiveAt >= idleMs &&
			this.adaptiveLimit.places.taken(now) === 0
		);
	}

	/** A node run joins; when `signal` aborts, its waiters leave. Its sends in flight keep places and bytes till released. */
	openShare(settings: ShareSettings, signal?: AbortSignal): LimiterShare {
		const share: Share = { ...settings, cap: Math.max(1, Math.floor(settings.cap)), queue: [], inFlight: 0 };
		return { acquire: (bodyBytes = 0) => this.acquire(share, Math.max(0, bodyBytes), signal) };
	}

	private async acquire(share: Share, bytes: number, signal?: AbortSignal): Promise<Permit> {
		if (signal?.aborted) throw new AbortedWait('cancelled while waiting to send');
		let admission: Admission;
		if (this.turns.waiting === 0 && this.mayStart(share, bytes)) admission = this.start(share, bytes);
		else {
			// The admission that resolves the waiter starts it; another share may have room now.
			const waiting = this.turns.enqueue(share, bytes, signal, () => this.drain());
			this.drain();
			admission = await waiting;
		}
		return { release: once((outcome: SendOutcome) => this.finish(share, outcome, admission)) };
	}

	/** A place and the bytes; a Fixed run sends exactly its number, never waiting for bytes. */
	private mayStart(share: Share, bytes: number, pass = bytesInTurn(this.bytes)): boolean {
		const now = this.clock.now();
		if (share.inFlight >= share.cap || now < this.pausedUntilMs) return false;
		return !share.adaptive || (this.adaptiveLimit.mayStart(now) && pass.mayTake(bytes, share.inFlight > 0));
	}

	private start(share: Share, bytes: number): Admission {
		const now = this.clock.now();
		share.inFlight++;
		this.sending++;
		this.lastActiveAt = now;
		// A Fixed run's bodies count too, so that adaptive sends wait for the memory they hold.
		const releaseBytes = this.bytes.take(bytes);
		return { sent: share.adaptive ? this.adaptiveLimit.sent(now) : undefined, releaseBytes };
	}

	/**
	 * Waiting sends start on the next turn of the event loop: answers that arrive together (a 429 among
	 * successes) are all seen first, so a refusal pauses the sends the others would have let out.
	 */
	private drain(): void {
		if (this.turns.waiting > 0 && !this.admissionScheduled) {
			this.admissionScheduled = true;
			void this.clock.sleep(0).then(() => {
				this.admissionScheduled = false;
				for (let next = this.nextWaiter(); next; next = this.nextWaiter()) {
					next.waiter.resolve(this.start(next.party, next.waiter.bytes));
				}
				if (this.turns.waiting > 0) this.scheduleWake();
			});
		}
		if (this.turns.waiting > 0) this.scheduleWake();
	}

	/** The next send in turn whose place and bytes are free (the bytes rule of one pass: bytesInTurn). */
	private nextWaiter() {
		const pass = bytesInTurn(this.bytes);
		const next = this.turns.next((share, head) => this.mayStart(share, head.bytes, pass));
		if (pass.waits) this.bytes.whenFreed(this.wake);
		return next;
	}

	private readonly wake = () => this.drain();

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

	private finish(share: Share, outcome: SendOutcome, { sent, releaseBytes }: Admission): void {
		share.inFlight--;
		this.sending--;
		releaseBytes();
		const now = this.clock.now();
		this.lastActiveAt = now;
		const retryAfterMs = retryAfterOf(outcome);
		if (retryAfterMs !== undefined) {
			// No longer than an item may wait: that item fails at once, the others ask again by then (not an hour later).
			this.pausedUntilMs = Math.max(this.pausedUntilMs, now + Math.min(retryAfterMs, this.settings.maxPauseMs));
		}
		if (sent) this.adaptiveLimit.answered(sent, outcome, now);
		this.drain();
	}
}
