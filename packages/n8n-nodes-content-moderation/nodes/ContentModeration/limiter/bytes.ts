/**
 * The byte budget of the n8n process (memory is per process, whatever the service): an adaptive send waits for
 * its bytes beside its place. A Fixed run's sends are counted but never wait (they keep exactly their number).
 */
import { once } from './waiters';

/**
 * Peak RSS grows by about 3.6x a body in flight (measured): 64 MB is about 230 MB at most, what 5 in flight
 * held with 10 MB images, while dozens of ordinary photos still go in parallel. One larger body goes alone.
 */
export const MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

/**
 * Bodies this small (a URL, a short text) are counted but never held back, and a large body does not wait
 * for them: a steady stream of them would otherwise keep the budget from emptying for a body larger than it.
 */
export const SMALL_BODY_BYTES = 64 * 1024;

/**
 * The share of the budget a run with sends in flight leaves to runs with none: else a one-image run beside
 * a bulk run (answered in bursts) waits a round trip for bytes, where a URL waits for nothing.
 */
export const RESERVED_SHARE = 1 / 8;

export class ByteBudget {
	// Private: the budget is process-wide (limiters.bytes), so only take() and its release may change it.
	private held = 0;
	/** Bytes of bodies of SMALL_BODY_BYTES or more: what a large body waits for. */
	private heldLarge = 0;
	private readonly onFreed = new Set<() => void>();

	constructor(readonly maxBytes: number = MAX_BODY_BYTES_IN_FLIGHT) {}

	get bytesInFlight(): number {
		return this.held;
	}

	/** Tells `wake` once, when bytes next come free. */
	whenFreed(wake: () => void): void {
		this.onFreed.add(wake);
	}

	/** Whether `bytes` may be taken now, leaving the reserve if `reserve`; one body larger than the budget goes alone. */
	fits(bytes: number, reserve = false): boolean {
		const room = this.maxBytes * (reserve ? 1 - RESERVED_SHARE : 1);
		return bytes < SMALL_BODY_BYTES || this.heldLarge === 0 || this.heldLarge + bytes <= room;
	}

	take(bytes: number): () => void {
		const large = bytes >= SMALL_BODY_BYTES ? bytes : 0;
		this.held += bytes;
		this.heldLarge += large;
		return once(() => {
			this.held -= bytes;
			this.heldLarge -= large;
			const waiting = [...this.onFreed];
			this.onFreed.clear();
			for (const wake of waiting) wake();
		});
	}
}

/**
 * The bytes rule of one pass over the turns: the first send whose bytes do not fit keeps its turn for them
 * (a large image is not starved by smaller ones); one held back by the reserve keeps it from the other sends
 * that must leave the reserve, so only runs with nothing in flight pass it.
 */
export function bytesInTurn(budget: ByteBudget): { mayTake(bytes: number, reserve: boolean): boolean; waits: boolean } {
	let blocked = false;
	let reserved = false;
	const pass = {
		waits: false,
		mayTake(bytes: number, reserve: boolean): boolean {
			if (bytes < SMALL_BODY_BYTES) return true;
			blocked ||= !budget.fits(bytes);
			reserved ||= reserve && !budget.fits(bytes, true);
			const may = !blocked && !(reserve && reserved) && budget.fits(bytes, reserve);
			pass.waits ||= !may;
			return may;
		},
	};
	return pass;
}
