/** Wait queues and their cancel: the turns node runs' queues take (round robin, in the order they began waiting). */

export class AbortedWait extends Error {}

/** One waiting caller; `T` is what its admission hands it. */
export interface Waiter<T = void> {
	resolve: (value: T) => void;
	/** Body bytes it waits for besides its place (0: none). */
	bytes: number;
}

/** Round robin: the next waiter comes from the first party in turn that may send, which goes to the back; within a party, FIFO. */
export class Turns<T, P extends { readonly queue: Array<Waiter<T>> }> {
	/** Parties with waiters, in turn order. */
	private readonly parties: P[] = [];
	waiting = 0;

	/** Puts a waiter at the end of `party`'s queue; if `signal` aborts first it leaves, rejects (AbortedWait), then `onCancelled` runs. */
	enqueue(party: P, bytes: number, signal: AbortSignal | undefined, onCancelled: () => void): Promise<T> {
		if (signal?.aborted) return Promise.reject(new AbortedWait('cancelled while waiting to send'));
		return new Promise<T>((resolve, reject) => {
			const onAbort = () => {
				this.remove(party, waiter);
				reject(new AbortedWait('cancelled while waiting to send'));
				onCancelled();
			};
			const waiter: Waiter<T> = {
				resolve: (value) => {
					signal?.removeEventListener('abort', onAbort);
					resolve(value);
				},
				bytes,
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			party.queue.push(waiter);
			this.waiting++;
			if (party.queue.length === 1) this.parties.push(party);
		});
	}

	/** Takes the next waiter that `mayStart` (asked of each party's first waiter, in turn), or undefined when none may. */
	next(mayStart: (party: P, head: Waiter<T>) => boolean): { party: P; waiter: Waiter<T> } | undefined {
		for (let i = 0; i < this.parties.length; i++) {
			const party = this.parties[i];
			if (!mayStart(party, party.queue[0])) continue;
			const waiter = party.queue.shift()!;
			this.waiting--;
			this.parties.splice(i, 1);
			if (party.queue.length > 0) this.parties.push(party);
			return { party, waiter };
		}
		return undefined;
	}

	private remove(party: P, waiter: Waiter<T>): void {
		const at = party.queue.indexOf(waiter);
		if (at < 0) return;
		party.queue.splice(at, 1);
		this.waiting--;
		if (party.queue.length === 0) this.parties.splice(this.parties.indexOf(party), 1);
	}
}

export function once<A extends unknown[]>(act: (...args: A) => void): (...args: A) => void {
	let done = false;
	return (...args) => {
		if (done) return;
		done = true;
		act(...args);
	};
}
