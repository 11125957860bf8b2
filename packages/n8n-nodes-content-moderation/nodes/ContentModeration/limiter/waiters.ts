/** Wait queues and their cancel: the turns node runs' queues take (round robin, in the order they began waiting). */

export class AbortedWait extends Error {}

/** One waiting caller; `T` is what its admission hands it. */
export interface Waiter<T = void> {
	resolve: (value: T) => void;
	reject: (error: unknown) => void;
	/** Body bytes it waits for besides its place (0: none). */
	bytes: number;
}

interface WaiterQueue<T> {
	push(waiter: Waiter<T>): void;
	remove(waiter: Waiter<T>): void;
}

/**
 * Puts a waiter at the end of `queue`; it settles when resolved, or rejects with AbortedWait when
 * `signal` aborts first (taken out of the queue, then `onCancelled` runs).
 */
export function enqueue<T>(
	queue: WaiterQueue<T>,
	bytes: number,
	signal: AbortSignal | undefined,
	onCancelled: () => void,
): Promise<T> {
	if (signal?.aborted) return Promise.reject(new AbortedWait('cancelled while waiting to send'));
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => {
			queue.remove(waiter);
			reject(new AbortedWait('cancelled while waiting to send'));
			onCancelled();
		};
		const waiter: Waiter<T> = {
			resolve: (value) => {
				signal?.removeEventListener('abort', onAbort);
				resolve(value);
			},
			reject,
			bytes,
		};
		signal?.addEventListener('abort', onAbort, { once: true });
		queue.push(waiter);
	});
}

/** A queue that belongs to one party (a node run's share) of those taking turns. */
export interface Party<T> {
	readonly queue: Array<Waiter<T>>;
}

/**
 * Round robin between parties: the next waiter comes from the first party in turn that may send, which
 * then goes to the back. Within a party, first come first served.
 */
export class Turns<T, P extends Party<T>> {
	/** Parties with waiters, in turn order. */
	private readonly parties: P[] = [];
	private count = 0;

	get waiting(): number {
		return this.count;
	}

	queueOf(party: P): WaiterQueue<T> {
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

	/** Takes the next waiter that `mayStart` (asked of each party's first waiter, in turn), or undefined when none may. */
	next(mayStart: (party: P, head: Waiter<T>) => boolean): { party: P; waiter: Waiter<T> } | undefined {
		for (let i = 0; i < this.parties.length; i++) {
			const party = this.parties[i];
			if (!mayStart(party, party.queue[0])) continue;
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
