/**
 * The byte budget of the n8n process: body bytes (base64 images) that adaptive node runs hold at once,
 * whichever service they go to and however many executions run. Memory is per process, so the budget is.
 */
import { enqueue, once, WaitQueue } from './waiters';

/**
 * Peak RSS grows by about 3.6x a body in flight (measured), so 64 MB is about 230 MB at most: what 5 in
 * flight held with 10 MB images, while dozens of ordinary photos still go in parallel. One larger body
 * is sent alone.
 */
export const MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

export class ByteBudget {
	private held = 0;
	private readonly waiting = new WaitQueue();

	constructor(readonly maxBytes: number = MAX_BODY_BYTES_IN_FLIGHT) {}

	get bytesInFlight(): number {
		return this.held;
	}

	/** Waits (first come first served) until `bytes` fit, and returns the release. */
	async reserve(bytes: number, signal?: AbortSignal): Promise<() => void> {
		if (bytes <= 0) return () => {};
		if (this.waiting.waiters.length > 0 || !this.fits(bytes)) {
			await enqueue(this.waiting, bytes, signal, () => this.drain());
		} else this.held += bytes;
		return once(() => {
			this.held -= bytes;
			this.drain();
		});
	}

	private fits(bytes: number): boolean {
		return this.held === 0 || this.held + bytes <= this.maxBytes;
	}

	private drain(): void {
		const queue = this.waiting.waiters;
		while (queue.length > 0 && this.fits(queue[0].bytes)) {
			const waiter = queue.shift()!;
			this.held += waiter.bytes;
			waiter.resolve();
		}
	}
}
