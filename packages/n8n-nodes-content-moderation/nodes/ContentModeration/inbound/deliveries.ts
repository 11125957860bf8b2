/**
 * Completions this process has started a workflow for or passed on, so that a repeated delivery does nothing,
 * and the claims held while one is handled. Only a SHA-256 of each key is kept.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { Clock } from '../helpers/clock';
import { processStore, type Stores } from '../helpers/processState';
import { REVIEW_EVENT } from './envelope';

/** Past this without n8n's answer, a completion counts as started: it can never start twice. */
export const OUTCOME_WAIT_MS = 120_000;

/** The longest wait for a completion held elsewhere (then `busy`): longer than a run of dozens of read-backs. */
export const CLAIM_WAIT_MS = 30_000;
/** A waiter looks again this often (for its bound, its cancel and an outcome n8n never gave). */
const WAIT_SLICE_MS = 250;

/** A delivery handled alone until `commit`, `release`, or `commitWhen` n8n says whether it started. */
export interface HeldClaim {
	kind: 'held';
	commit(): void;
	release(): void;
	/** Ends with n8n's outcome (true: started); `commit` and `release` are ignored from here on. */
	commitWhen(started: Promise<boolean>): void;
}

export type Claim =
	| HeldClaim
	/** A workflow was already started for this completion. */
	| { kind: 'duplicate' }
	/** Another delivery of it is being handled right now: wait until it is `handled`, then claim again. */
	| { kind: 'inFlight'; handled: Promise<void> };

/** What a bounded wait for a claim gives: held, a duplicate, or `busy` (still handled elsewhere at the bound, or cancelled). */
export type Taken = HeldClaim | { kind: 'duplicate' } | { kind: 'busy' };

/** The hash of a key's parts (JSON values, each encoded as JSON); the parts themselves are not kept. */
export function deliveryKey(parts: ReadonlyArray<unknown>): string {
	return createHash('sha256').update(JSON.stringify(parts)).digest('base64');
}

/**
 * One completion for one receiver (`scope`: ids that survive a rename). Result ids are UUIDs: a slim and a full
 * delivery of one result share the key whatever kind their data shows. A review decision can change: it is part.
 */
export function completionKey(scope: ReadonlyArray<string>, event: string, data: IDataObject & { id: string }): string {
	const parts: unknown[] = [...scope, event, data.id];
	if (event === REVIEW_EVENT) parts.push(data.status ?? null, data.accepted ?? null);
	return deliveryKey(parts);
}

/** `until`: handed to n8n, waiting for its answer until then. */
type Handling = { handled: Promise<void>; finish: (started: boolean) => void; until?: number };

export class DeliveryRegistry {
	/** Completions remembered as started (or passed on): their keys' hashes. */
	private readonly started;
	private readonly underWay;
	readonly clock: Clock;

	constructor(
		stores: Stores = processStore,
		private readonly outcomeWaitMs = OUTCOME_WAIT_MS,
	) {
		this.started = stores<true>('startedCompletions');
		this.underWay = stores<Handling>('completionsInFlight');
		this.clock = this.started.clock;
	}

	get size(): number {
		return this.started.size;
	}

	get inFlight(): number {
		return this.underWay.size;
	}

	/** Synchronous on purpose: a claim made before the first await cannot race another delivery. */
	claim(key: string): Claim {
		const busy = this.underWay.get(key);
		// No answer from n8n in time: taken as started, so it can never run twice (checked here: no timer).
		if (busy?.until !== undefined && busy.until <= this.clock.now()) busy.finish(true);
		if (this.started.get(key)) return { kind: 'duplicate' };
		if (busy !== undefined) return { kind: 'inFlight', handled: busy.handled };

		let ended: () => void = () => {};
		let done = false;
		const finish = (started: boolean) => {
			if (done) return;
			done = true;
			if (this.underWay.get(key) === entry) this.underWay.delete(key);
			if (started) this.started.set(key, true);
			ended();
		};
		const entry: Handling = { handled: new Promise((resolve) => (ended = resolve)), finish };
		this.underWay.set(key, entry);
		const end = (started: boolean) => () => {
			if (entry.until === undefined) finish(started);
		};
		return {
			kind: 'held',
			commit: end(true),
			release: end(false),
			commitWhen: (started) => {
				if (done || entry.until !== undefined) return;
				entry.until = this.clock.now() + this.outcomeWaitMs;
				// An outcome that cannot be read is taken as started: never run twice.
				void started.catch(() => true).then(finish);
			},
		};
	}

	/** Claims `key`, waiting while another delivery holds it, at most `timeoutMs` and not past `signal`. */
	async claimWhenFree(key: string, timeoutMs = CLAIM_WAIT_MS, signal?: AbortSignal): Promise<Taken> {
		const deadline = this.clock.now() + timeoutMs;
		for (;;) {
			const claim = this.claim(key);
			if (claim.kind !== 'inFlight') return claim;
			const left = deadline - this.clock.now();
			if (left <= 0 || signal?.aborted === true) return { kind: 'busy' };
			await Promise.race([claim.handled, this.clock.sleep(Math.min(left, WAIT_SLICE_MS))]);
		}
	}
}

export const deliveries = new DeliveryRegistry();
