/**
 * The limiter's wait queues and their cancel: one FIFO queue per node run, and the turns the runs take
 * (round robin, in the order they began waiting).
 */

export class AbortedWait extends Error {}

export interface Waiter {
	/** Admits it; a send slot passes on the load it went out at. */
	resolve: (load?: number) => void;
	reject: (error: unknown) => void;
	/** Body bytes it waits for (0 when it waits for a send slot). */
	bytes: number;
}

/**
 * Puts a waiter at the end of `queue`; it settles when the limiter resolves it, or rejects with
 * AbortedWait when `signal` aborts first (taken out of the queue, then `onCancelled` runs).
 */
export function enqueue(
	queue: { push(waiter: Waiter): void; remove(waiter: Waiter): void },
	bytes: number,
	signal: AbortSignal | undefined,
	onCancelled: () => void,
): Promise<number> {
	if (signal?.aborted) return Promise.reject(new AbortedWait('cancelled while waiting to send'));
	return new Promise<number>((resolve, reject) => {
		const waiter: Waiter = { resolve: (load = 0) => resolve(load), reject, bytes };
		const onAbort = () => {
			queue.remove(waiter);
			reject(new AbortedWait('cancelled while waiting to send'));
			onCancelled();
		};
		waiter.resolve = (load = 0) => {
			signal?.removeEventListener('abort', onAbort);
			resolve(load);
		};
		signal?.addEventListener('abort', onAbort, { once: true });
		queue.push(waiter);
	});
}

/** A plain FIFO queue of waiters. */
export class WaitQueue {
	readonly waiters: Waiter[] = [];
	push(waiter: Waiter): void {
		this.waiters.push(waiter);
	}
	remove(waiter: Waiter): void {
		const at = this.waiters.indexOf(waiter);
		if (at >= 0) this.waiters.splice(at, 1);
	}
}

/** A queue that belongs to one party (a node run) of those taking turns. */
export interface Party {
	readonly queue: Waiter[];
}

/**
 * Round robin between parties: the next waiter comes from the first party in turn that may send, which
 * then goes to the back. Within a party, first come first served.
 */
export class Turns<P extends Party> {
	/** Parties with waiters, in turn order. */
	private readonly parties: P[] = [];
	private count = 0;

	get waiting(): number {
		return this.count;
	}

	queueOf(party: P): { push(waiter: Waiter): void; remove(waiter: Waiter): void } {
		return {
			push: (waiter) => {
				party.queue.push(waiter);
				this.count++;
				if (party.queue.length === 1) this.parties.push(party);
			},
			remove: (waiter) => {
				const at = party.queue.indexOf(waiter);
				if (at < 0) return;
				party.queue.splice(at, 1);
				this.count--;
				if (party.queue.length === 0) this.parties.splice(this.parties.indexOf(party), 1);
			},
		};
	}

	/** Takes the next waiter whose party `mayStart`, or undefined when none may. */
	next(mayStart: (party: P) => boolean): { party: P; waiter: Waiter } | undefined {
		for (let i = 0; i < this.parties.length; i++) {
			const party = this.parties[i];
			if (!mayStart(party)) continue;
			const waiter = party.queue.shift()!;
			this.count--;
			this.parties.splice(i, 1);
			if (party.queue.length > 0) this.parties.push(party);
			return { party, waiter };
		}
		return undefined;
	}
}

/** A release that acts once, however often it is called. */
export function once<A extends unknown[]>(act: (...args: A) => void): (...args: A) => void {
	let done = false;
	return (...args) => {
		if (done) return;
		done = true;
		act(...args);
	};
}
