/**
 * Which completions this n8n process has already started a workflow for (the trigger) or passed on
 * (Callback > Receive): the registry that lets a sender's repeated delivery start or pass on nothing, and
 * the claims a delivery takes on its completion while it is handled (a node run's: runClaims.ts).
 *
 * Only a SHA-256 of the key is kept (receiver, event, id, result kind or decision): no payload, no secret.
 * Memory is bounded twice: an entry is forgotten REMEMBER_MS after its start, and beyond MAX_REMEMBERED the
 * oldest entries go first. No timer: expired entries are dropped when the registry is next used, so
 * nothing keeps the process alive. Each n8n process (each queue-mode webhook processor) has its own registry.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { BoundedMap } from '../helpers/boundedMap';
import { systemClock, type Clock } from '../helpers/clock';
import { RESULT_EVENT, resultKind, REVIEW_EVENT } from './envelope';

/**
 * A day: longer than the retry schedules senders commonly use (seconds to hours between a few attempts);
 * a delivery of the same completion after that starts the workflow again.
 */
export const REMEMBER_MS = 24 * 60 * 60_000;

/** About 100 bytes each (measured in the registry's test): a few MB at most, whatever the rate. */
export const MAX_REMEMBERED = 50_000;

/**
 * How long a delivery handed to n8n may wait for n8n's answer before it counts as started: longer than
 * n8n takes to create an execution under load (seconds) and to wait for a place under a concurrency
 * limit. Past it (seen by the next delivery of it) the completion is taken as started, so an answer
 * that never comes can never start it twice.
 */
export const OUTCOME_WAIT_MS = 120_000;

/**
 * The longest wait for a completion another delivery or execution holds: past it the waiter gives up
 * (`busy`) instead of hanging. Longer than a node run of a few dozen callbacks takes to read them back.
 */
export const CLAIM_WAIT_MS = 30_000;
/** A waiter looks again this often (for its bound, its cancel and an outcome n8n never gave). */
const WAIT_SLICE_MS = 250;

export interface DeliveryLimits {
	rememberMs: number;
	maxRemembered: number;
}

/**
 * A delivery this caller now handles alone: `commit` once its workflow starts, else `release`; or
 * `commitWhen` n8n says whether it started the execution the delivery was handed to. Until then the
 * completion stays in flight: another delivery of it waits, and a start n8n did not make frees it again.
 */
export interface HeldClaim {
	kind: 'held';
	commit(): void;
	release(): void;
	/** Settles with n8n's outcome (true: started); `commit` and `release` are ignored from here on. */
	commitWhen(started: Promise<boolean>): void;
}

export type Claim =
	| HeldClaim
	/** A workflow was already started for this completion. */
	| { kind: 'duplicate' }
	/** Another delivery of it is being handled right now: wait for `settled`, then claim again. */
	| { kind: 'inFlight'; settled: Promise<void> };

/** What a bounded wait for a claim gives: held, a duplicate, or `busy` (still handled elsewhere at the bound, or cancelled). */
export type Taken = HeldClaim | { kind: 'duplicate' } | { kind: 'busy' };

/** The hash of a key's parts (JSON values, each encoded as JSON); the parts themselves are not kept. */
export function deliveryKey(parts: ReadonlyArray<unknown>): string {
	return createHash('sha256').update(JSON.stringify(parts)).digest('base64');
}

/**
 * The key of one completion for one receiver (`scope`: the workflow and the trigger or node taking it, by
 * ids that survive a rename). A text and an image result may share an id: the result kind is part of it.
 * A review decision can change (accepted, then rejected): each decision is its own completion.
 */
export function completionKey(scope: ReadonlyArray<string>, event: string, data: IDataObject & { id: string }): string {
	const parts: unknown[] = [...scope, event, data.id];
	if (event === RESULT_EVENT) parts.push(resultKind(data));
	if (event === REVIEW_EVENT) parts.push(data.status ?? null, data.accepted ?? null);
	return deliveryKey(parts);
}

export class DeliveryRegistry {
	/** key -> when it is forgotten; insertion order is expiry order (one TTL for all). */
	private readonly started: BoundedMap<string, number>;
	private readonly handling = new Map<string, Promise<void>>();
	/** Deliveries handed to n8n, waiting for its answer: until when, and how to settle them. */
	private readonly awaitingN8n = new Map<string, { until: number; finish: (started: boolean) => void }>();

	constructor(
		readonly clock: Clock = systemClock,
		private readonly limits: DeliveryLimits = { rememberMs: REMEMBER_MS, maxRemembered: MAX_REMEMBERED },
		private readonly outcomeWaitMs = OUTCOME_WAIT_MS,
	) {
		this.started = new BoundedMap(limits.maxRemembered);
	}

	/** Completions remembered as started. */
	get size(): number {
		return this.started.size;
	}

	/** Deliveries being handled now. */
	get inFlight(): number {
		return this.handling.size;
	}

	/** Forgets everything, as a new process would. */
	clear(): void {
		this.started.clear();
		this.handling.clear();
		this.awaitingN8n.clear();
	}

	private forgetExpired(now: number): void {
		this.started.dropOldestWhile((forgetAt) => forgetAt <= now);
	}

	/**
	 * Synchronous on purpose: a caller that claims before its first await cannot race another delivery of
	 * the same completion in this process.
	 */
	claim(key: string): Claim {
		const now = this.clock.now();
		this.forgetExpired(now);
		// No answer from n8n in time: taken as started, so it can never run twice (checked here: no timer).
		const waiting = this.awaitingN8n.get(key);
		if (waiting !== undefined && waiting.until <= now) waiting.finish(true);
		if (this.started.has(key)) return { kind: 'duplicate' };
		const busy = this.handling.get(key);
		if (busy !== undefined) return { kind: 'inFlight', settled: busy };

		let settle: () => void = () => {};
		this.handling.set(key, new Promise<void>((resolve) => (settle = resolve)));
		let done = false;
		let handedOver = false;
		const finish = (started: boolean) => {
			if (done) return;
			done = true;
			this.handling.delete(key);
			this.awaitingN8n.delete(key);
			if (started) {
				const at = this.clock.now();
				this.forgetExpired(at);
				this.started.set(key, at + this.limits.rememberMs);
			}
			settle();
		};
		return {
			kind: 'held',
			commit: () => {
				if (!handedOver) finish(true);
			},
			release: () => {
				if (!handedOver) finish(false);
			},
			commitWhen: (started) => {
				if (done || handedOver) return;
				handedOver = true;
				this.awaitingN8n.set(key, { until: this.clock.now() + this.outcomeWaitMs, finish });
				// An outcome that cannot be read is taken as started: never run twice.
				void started.catch(() => true).then(finish);
			},
		};
	}

	/**
	 * Claims `key`, waiting while another delivery of it is handled, at most `timeoutMs` and not past
	 * `signal`'s abort: held, a duplicate, or busy.
	 */
	async claimWhenFree(key: string, timeoutMs = CLAIM_WAIT_MS, signal?: AbortSignal): Promise<Taken> {
		const deadline = this.clock.now() + timeoutMs;
		for (;;) {
			const claim = this.claim(key);
			if (claim.kind !== 'inFlight') return claim;
			const left = deadline - this.clock.now();
			if (left <= 0 || signal?.aborted === true) return { kind: 'busy' };
			await Promise.race([claim.settled, this.clock.sleep(Math.min(left, WAIT_SLICE_MS))]);
		}
	}
}

/** The registry of this process. */
export const deliveries = new DeliveryRegistry();
