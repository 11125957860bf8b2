/**
 * Each waiting item's result once known, so that none is read twice (n8n's database cannot be written without
 * resuming). Kept masked, dropped when the run resumes.
 */
import type { IDataObject } from 'n8n-workflow';

import { processStore, type Stores } from '../../helpers/processState';

/** How long a run this process resumed answers "being resumed" to callbacks under way (then n8n's 409). */
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
		const learned = this.results.get(itemIndex);
		return learned?.id === id ? learned.result : undefined;
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
		const learned = this.result(itemIndex, id);
		if (learned !== undefined) return { result: learned };
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
	private readonly runs;

	constructor(stores: Stores = processStore) {
		this.runs = stores<RunMemory>('waitingRuns');
	}

	get size(): number {
		return this.runs.size;
	}

	/** Called where the items were submitted, just before the run waits until `deadline` (ISO). */
	watch(key: string, deadline: string | undefined): void {
		const run = new RunMemory(true, this.until(deadline));
		this.runs.set(key, run, run.until);
	}

	/** The run's memory; an empty, unwatched one when this process knew nothing of it. */
	run(key: string, deadline: string | undefined): RunMemory {
		const remembered = this.runs.get(key);
		const resumedLongAgo =
			remembered?.resumedAt !== undefined && this.runs.clock.now() - remembered.resumedAt >= RESUMING_MS;
		const run = remembered === undefined || resumedLongAgo ? new RunMemory(false, this.until(deadline)) : remembered;
		this.runs.set(key, run, run.until);
		return run;
	}

	/** Marks a run resumed by this process and drops what it learned (synchronously: one resume per process). */
	resume(key: string): void {
		this.runs.get(key)?.drop(this.runs.clock.now());
	}

	/** Without a deadline (none is saved without one): the default Wait Timeout. */
	private until(deadline: string | undefined): number {
		const at = Date.parse(deadline ?? '');
		return Number.isFinite(at) ? at : this.runs.clock.now() + this.runs.bounds.ttlMs;
	}
}

export const waitMemory = new WaitMemory();

/** A run is one node's wait in one execution (a node in a loop waits again, with another deadline). */
export function runKey(executionId: string, nodeName: string, deadline: string | undefined): string {
	return JSON.stringify([executionId, nodeName, deadline ?? '']);
}
