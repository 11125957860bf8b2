/**
 * One Callback > Receive run's claims on completions: passed on only when the run succeeds with the item in its
 * outputs; a failed run frees them all, so a delivery again passes on.
 */
import { CLAIM_WAIT_MS, deliveries, type DeliveryRegistry, type HeldClaim } from './deliveries';

/** What an item does with its completion: pass it on, drop it as a repeat, or fail (held elsewhere past the bound). */
export type Turn = 'pass' | 'repeat' | 'busy';

/** One completion's state within a node run. */
interface RunKey {
	/** The registry asked for it (once per run), resolved once it answered. */
	taken?: Promise<void>;
	/** The registry's claim, held by the run until it ends. */
	claim?: HeldClaim;
	/** Passed on by an item of this run, or already before it: later items with the key are repeats. */
	passedOn: boolean;
	/** Another execution still held it at the bound, or the execution was cancelled while waiting. */
	busy: boolean;
	/** Resolves when the last item that asked for the key is done with it. */
	tail: Promise<void>;
}

export class RunClaims {
	private readonly keys = new Map<string, RunKey>();
	/** Per item that asked for a key: the key, and the end of its turn. */
	private readonly turns = new Map<number, { key: string; done: () => void }>();
	private closed = false;

	constructor(
		private readonly registry: DeliveryRegistry = deliveries,
		/** The execution's cancel signal: a wait for another execution ends with it. */
		private readonly signal?: AbortSignal,
		private readonly waitMs = CLAIM_WAIT_MS,
	) {}

	private stateOf(key: string): RunKey {
		const state = this.keys.get(key) ?? { passedOn: false, busy: false, tail: Promise.resolve() };
		this.keys.set(key, state);
		return state;
	}

	/**
	 * Takes the run's completions before its items run, in sorted order, held until the run ends: two runs
	 * never wait on each other. All the waits together end at the bound or with the execution (then busy).
	 */
	async takeAll(keys: ReadonlyArray<string | undefined>): Promise<void> {
		const deadline = this.registry.clock.now() + this.waitMs;
		const sorted = [...new Set(keys.filter((key): key is string => key !== undefined))].sort();
		for (const key of sorted) await this.take(key, deadline - this.registry.clock.now());
	}

	private async take(key: string, timeoutMs: number): Promise<void> {
		const state = this.stateOf(key);
		state.taken ??= this.registry.claimWhenFree(key, Math.max(0, timeoutMs), this.signal).then((taken) => {
			if (taken.kind === 'held' && this.closed) taken.release();
			else if (taken.kind === 'held') state.claim = taken;
			else if (taken.kind === 'duplicate') state.passedOn = true;
			else state.busy = true;
		});
		await state.taken;
	}

	/** Item `itemIndex`'s turn with completion `key`: `pass` means the item holds it until `itemDone`. */
	async turn(key: string, itemIndex: number): Promise<Turn> {
		const state = this.stateOf(key);
		const previous = state.tail;
		let done: () => void = () => {};
		state.tail = new Promise<void>((resolve) => (done = resolve));
		this.turns.set(itemIndex, { key, done });
		await previous;
		// Not among those taken before the items ran: taken now, within the same bound.
		await this.take(key, this.waitMs);
		const turn: Turn = this.closed || state.passedOn ? 'repeat' : state.busy ? 'busy' : 'pass';
		if (turn !== 'pass') this.itemDone(itemIndex, false);
		return turn;
	}

	/** Item `itemIndex` is done: `passedOn` when it outputs its completion. The next item with its key may go. */
	itemDone(itemIndex: number, passedOn: boolean): void {
		const turn = this.turns.get(itemIndex);
		if (turn === undefined) return;
		this.turns.delete(itemIndex);
		const state = this.keys.get(turn.key);
		if (passedOn && state !== undefined) state.passedOn = true;
		turn.done();
	}

	/** The run succeeded: completions an item passed on count as passed on; the others are free again. */
	commit(): void {
		this.close((state) => (state.passedOn ? state.claim?.commit() : state.claim?.release()));
	}

	/** The run failed: every completion it held is free again. */
	release(): void {
		this.close((state) => state.claim?.release());
	}

	private close(end: (state: RunKey) => void): void {
		if (this.closed) return;
		this.closed = true;
		for (const state of this.keys.values()) end(state);
		for (const turn of this.turns.values()) turn.done();
		this.turns.clear();
	}
}
