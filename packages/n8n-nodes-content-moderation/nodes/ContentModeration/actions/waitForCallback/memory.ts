/**
 * What this n8n process learned about the items of waiting Wait for Callback runs: each item's result once
 * known (from its callback's body or one read), so that this process reads no result twice. n8n's database
 * keeps the run's state (state.ts); the webhook cannot write there without resuming, so this is per process.
 *
 * Bounded: at most MAX_WAITING_RUNS runs (the least recently used go first), each forgotten when its Wait
 * Timeout runs out; its results are dropped when it resumes. Results are kept masked (the credential's
 * secrets, the callback URLs' keys, n8n's resume token). No timer: expired runs are dropped at the next use.
 */
import type { IDataObject } from 'n8n-workflow';

import { systemClock, type Clock } from '../../helpers/clock';

export const MAX_WAITING_RUNS = 1_000;
/** For a state without a deadline (none is saved without one): the default Wait Timeout. */
const FALLBACK_MS = 3_600_000;
/**
 * How long a run this process resumed answers "being resumed" to callbacks that were already under way
 * (n8n itself answers 409 once the execution runs). Past it, a run n8n did not resume is taken as unknown.
 */
export const RESUMING_MS = 60_000;

/** One read of an item's result: the result, not ready yet, or failed (a short reason naming no input). */
export type Outcome = { result: IDataObject } | { pending: true } | { failed: string };

export class RunMemory {
	private readonly results = new Map<number, { id: string; result: IDataObject }>();
	private readonly reads = new Map<number, Promise<Outcome>>();
	/** Items whose callback was answered non-2xx: the sender may give up on them, so another callback reads them. */
	readonly refused = new Set<number>();
	/** When this process resumed the run (its results are dropped then) */
	resumedAt?: number;

	/** `watched`: this process submitted the items, so every callback that reached it since is known here. */
	constructor(
		readonly watched: boolean,
		readonly until: number,
	) {}

	result(itemIndex: number, id: string): IDataObject | undefined {
		const known = this.results.get(itemIndex);
		return known?.id === id ? known.result : undefined;
	}

	remember(itemIndex: number, id: string, result: IDataObject): void {
		this.results.set(itemIndex, { id, result });
		this.refused.delete(itemIndex);
	}

	/** Drops what was learned; callbacks still holding this run see `resumedAt`. */
	drop(resumedAt: number): void {
		this.results.clear();
		this.reads.clear();
		this.refused.clear();
		this.resumedAt = resumedAt;
	}

	/** The item's result, read by `reader` unless known; callbacks that need it at once share one read. */
	async read(itemIndex: number, id: string, reader: () => Promise<Outcome>): Promise<Outcome> {
		const known = this.result(itemIndex, id);
		if (known !== undefined) return { result: known };
		let reading = this.reads.get(itemIndex);
		if (reading === undefined) {
			// A read that throws is forgotten too, so the next callback reads again.
			reading = reader()
				.then((outcome) => {
					if ('result' in outcome) this.remember(itemIndex, id, outcome.result);
					return outcome;
				})
				.finally(() => this.reads.delete(itemIndex));
			this.reads.set(itemIndex, reading);
		}
		return await reading;
	}
}

export class WaitMemory {
	private readonly runs = new Map<string, RunMemory>();

	constructor(
		private readonly clock: Clock = systemClock,
		private readonly max = MAX_WAITING_RUNS,
	) {}

	get size(): number {
		return this.runs.size;
	}

	/** Forgets everything, as a new process would. */
	clear(): void {
		this.runs.clear();
	}

	/** Called where the items were submitted, just before the run waits until `deadline` (ISO). */
	watch(key: string, deadline: string | undefined): void {
		this.put(key, new RunMemory(true, this.until(deadline)));
	}

	/** The run's memory; an empty, unwatched one when this process knew nothing of it. */
	run(key: string, deadline: string | undefined): RunMemory {
		this.dropExpired();
		const known = this.runs.get(key);
		const resumedLongAgo = known?.resumedAt !== undefined && this.clock.now() - known.resumedAt >= RESUMING_MS;
		const run = known === undefined || resumedLongAgo ? new RunMemory(false, this.until(deadline)) : known;
		this.put(key, run);
		return run;
	}

	/** Marks a run resumed by this process and drops what it learned (synchronously: one resume per process). */
	resume(key: string): void {
		this.runs.get(key)?.drop(this.clock.now());
	}

	private until(deadline: string | undefined): number {
		const at = Date.parse(deadline ?? '');
		return Number.isFinite(at) ? at : this.clock.now() + FALLBACK_MS;
	}

	private put(key: string, run: RunMemory): void {
		this.dropExpired();
		this.runs.delete(key);
		this.runs.set(key, run);
		for (const oldest of this.runs.keys()) {
			if (this.runs.size <= this.max) break;
			this.runs.delete(oldest);
		}
	}

	private dropExpired(): void {
		const now = this.clock.now();
		for (const [key, run] of this.runs) if (run.until <= now) this.runs.delete(key);
	}
}

/** This process's memory of its waiting runs. */
export const waitMemory = new WaitMemory();

/** A run is one node's wait in one execution (a node in a loop waits again, with another deadline). */
export function runKey(executionId: string, nodeName: string, deadline: string | undefined): string {
	return JSON.stringify([executionId, nodeName, deadline ?? '']);
}
