/** The limiter's FIFO queues of sends waiting for room, and their cancel. */

export class AbortedWait extends Error {}

export interface Waiter {
	resolve: () => void;
	reject: (error: unknown) => void;
	/** Body bytes it waits for (0 when it waits for a send slot). */
	bytes: number;
}

/**
 * Puts a waiter at the end of `queue`; it settles when the limiter resolves it, or rejects with
 * AbortedWait when `signal` aborts first (taken out of the queue, then `onCancelled` runs).
 */
export function enqueue(queue: Waiter[], bytes: number, signal: AbortSignal | undefined, onCancelled: () => void): Promise<void> {
	if (signal?.aborted) return Promise.reject(new AbortedWait('cancelled while waiting to send'));
	return new Promise<void>((resolve, reject) => {
		const waiter: Waiter = { resolve, reject, bytes };
		const onAbort = () => {
			const at = queue.indexOf(waiter);
			if (at >= 0) queue.splice(at, 1);
			reject(new AbortedWait('cancelled while waiting to send'));
			onCancelled();
		};
		waiter.resolve = () => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		};
		signal?.addEventListener('abort', onAbort, { once: true });
		queue.push(waiter);
	});
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
