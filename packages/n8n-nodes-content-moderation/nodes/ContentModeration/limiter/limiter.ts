/**
 * One service's limiter, shared by every node run in this n8n process that talks to it (registry.ts
 * finds it). Shared: the adaptive limit (aimd.ts, sent in rounds while it grows blindly: rounds.ts), the
 * Retry-After pause, admission. Per run (RunLimiter): its cap, its cancel signal, Fixed or adaptive.
 * Runs take turns (waiters.ts): a one-item execution does not wait behind a large run's queue. Time
 * comes from an injected clock (tests use a fake one).
 */
import { DEFAULT_RETRY_SETTINGS } from '../retry/policy';
import { AimdLimit } from './aimd';
import { isRefusal, type SendOutcome, type SentAt } from './outcome';
import { SlowStartRounds } from './rounds';
import { AbortedWait, enqueue, once, Turns, type Waiter } from './waiters';

export interface LimiterClock {
	now(): number;
	/** Resolves after `ms` (n8n's sleep in the node). */
	sleep(ms: number): Promise<void>;
}

/** What is a node run's own. */
export interface RunSettings {
	/** Adaptive: the shared limit and at most `cap` of them. Fixed: exactly `cap` (no shared limit). */
	adaptive: boolean;
	cap: number;
}

/** A granted send; `release` once its answer (or failure) is in. */
export interface Permit {
	release(outcome: SendOutcome): void;
}

/** One node run's way into the shared limiter. */
export interface RunLimiter {
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

interface Run extends RunSettings {
	readonly queue: Waiter[];
	inFlight: number;
	readonly permits: Set<Permit>;
}

/** The cap of the shared limit: runs keep their own (Max Concurrency) below it. */
export const SHARED_CAP = 1000;

export class ServiceLimiter {
	private readonly aimd = new AimdLimit(SHARED_CAP);
	private readonly rounds = new SlowStartRounds();
	/** Adaptive sends in flight (Fixed runs count only in their own run). */
	private inFlightCount = 0;
	private pausedUntilMs = 0;
	private readonly turns = new Turns<Run>();
	/** The last time anything was sent or answered. */
	lastActiveAt: number;

	constructor(private readonly clock: LimiterClock) {
		this.lastActiveAt = clock.now();
	}

	/** Adaptive sends allowed in flight now (whole number). */
	get limit(): number {
		return this.aimd.limit;
	}

	snapshot(): LimiterSnapshot {
		const { limit, inFlightCount: inFlight, pausedUntilMs: pausedUntil } = this;
		return { limit, inFlight, waiting: this.turns.waiting, pausedUntil };
	}

	/** Nothing in flight or waiting, and nothing sent or answered for `idleMs`. */
	isIdle(now: number, idleMs: number): boolean {
		return this.inFlightCount === 0 && this.turns.waiting === 0 && now - this.lastActiveAt >= idleMs && this.held === 0;
	}

	/** A node run joins; when `signal` aborts, its waiters leave and its places are given back at once. */
	openRun(settings: RunSettings, signal?: AbortSignal): RunLimiter {
		const run: Run = { ...settings, cap: Math.max(1, Math.floor(settings.cap)), queue: [], inFlight: 0, permits: new Set() };
		signal?.addEventListener('abort', () => {
			for (const permit of [...run.permits]) permit.release({ kind: 'neutral' });
		}, { once: true });
		return { acquire: () => this.acquire(run, signal) };
	}

	private async acquire(run: Run, signal?: AbortSignal): Promise<Permit> {
		if (signal?.aborted) throw new AbortedWait('cancelled while waiting to send');
		let load: number;
		if (this.turns.waiting === 0 && this.mayStart(run)) load = this.start(run);
		else {
			// `start` is done by the admission that resolves the waiter; another run may have room now.
			const waiting = enqueue(this.turns.queueOf(run), 0, signal, () => this.drain());
			this.drain();
			load = await waiting;
		}
		const sent: SentAt & { round: number } = { at: this.clock.now(), limit: this.limit, load, round: -1 };
		if (run.adaptive) {
			this.aimd.sent(this.inFlightCount);
			sent.round = this.rounds.sent();
		}
		const permit: Permit = { release: once((outcome: SendOutcome) => this.finish(run, permit, outcome, sent)) };
		run.permits.add(permit);
		return permit;
	}

	private mayStart(run: Run): boolean {
		const now = this.clock.now();
		if (run.inFlight >= run.cap || now < this.pausedUntilMs) return false;
		if (!run.adaptive) return true;
		if (this.inFlightCount + this.held >= this.limit) return false;
		return !this.aimd.inSlowStart || this.rounds.open(now);
	}

	/** Takes a place for `run`; returns the load it goes out at (adaptive sends in flight, itself included). */
	private start(run: Run): number {
		run.inFlight++;
		if (run.adaptive) this.inFlightCount++;
		this.lastActiveAt = this.clock.now();
		return this.inFlightCount;
	}

	private admissionScheduled = false;

	/**
	 * Waiting sends start on the next turn of the event loop, not inside the answer that made room:
	 * answers that arrive together (a 429 among successes) are all seen first, so a refusal pauses the
	 * sends that its round's successes would otherwise have let out.
	 */
	private drain(): void {
		if (this.turns.waiting > 0 && !this.admissionScheduled) {
			this.admissionScheduled = true;
			void this.clock.sleep(0).then(() => {
				this.admissionScheduled = false;
				for (let next = this.turns.next((r) => this.mayStart(r)); next; next = this.turns.next((r) => this.mayStart(r))) {
					next.waiter.resolve(this.start(next.party));
				}
				if (this.turns.waiting > 0) this.scheduleWake();
			});
		}
		if (this.turns.waiting > 0) this.scheduleWake();
	}

	private wakeAt: number | undefined;

	/** While waiters wait for the pause's end (or a slow-start round's grace), one wake-up then. */
	private scheduleWake(): void {
		const now = this.clock.now();
		const opensAt = this.aimd.inSlowStart ? this.rounds.opensAt() : undefined;
		const at = Math.max(this.pausedUntilMs, opensAt ?? 0);
		if (at <= now || this.wakeAt === at) return;
		this.wakeAt = at;
		void this.clock.sleep(at - now).then(() => {
			if (this.wakeAt === at) this.wakeAt = undefined;
			this.drain();
		});
	}

	/** Places of refused sends, kept until one round trip after they went out (see `finish`). */
	private held = 0;

	private finish(run: Run, permit: Permit, outcome: SendOutcome, sent: SentAt & { round: number }): void {
		run.inFlight--;
		run.permits.delete(permit);
		const now = this.clock.now();
		this.lastActiveAt = now;
		if (outcome.kind === 'throttled' && outcome.retryAfterMs !== undefined && outcome.retryAfterMs > 0) {
			// No longer than an item may wait: the item told to wait longer fails at once, and the other runs
			// ask again by then (and fail saying why) rather than wait silently for an hour.
			const pauseMs = Math.min(outcome.retryAfterMs, DEFAULT_RETRY_SETTINGS.maxDelayMs);
			this.pausedUntilMs = Math.max(this.pausedUntilMs, now + pauseMs);
		}
		if (run.adaptive) {
			this.inFlightCount--;
			this.rounds.answered(sent.round, now, now - sent.at);
			this.aimd.answered(outcome, sent, now, this.inFlightCount);
			// A refusal answered at once must not free its place for another send at once: a full service
			// would then be sent a stream of requests to refuse. The place stays taken for a round trip.
			const keep = isRefusal(outcome) ? sent.at + this.aimd.roundTripMs - now : 0;
			if (keep > 0) {
				this.held++;
				void this.clock.sleep(keep).then(() => {
					this.held--;
					this.drain();
				});
			}
		}
		this.drain();
	}
}
