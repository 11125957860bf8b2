import { mapConcurrent } from '@package/nodes/ContentModeration/helpers/pool';

/** A promise that settles when the test says so, so ordering does not depend on timers. */
function deferred<T>() {
	let resolve!: (v: T) => void;
	let reject!: (e: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('mapConcurrent', () => {
	it('keeps input order when later items finish first', async () => {
		const items = Array.from({ length: 20 }, (_, i) => i);
		// Delays shrink with the index, so completion order is roughly the reverse of input order.
		const finished: number[] = [];
		const out = await mapConcurrent(items, 8, async (n) => {
			await new Promise((r) => setTimeout(r, (20 - n) * 2));
			finished.push(n);
			return `v${n}`;
		});
		expect(out).toEqual(items.map((n) => `v${n}`));
		expect(finished).not.toEqual(items);
	});

	it('never has more than `limit` calls in flight, and reaches the limit', async () => {
		let inFlight = 0;
		let peak = 0;
		await mapConcurrent(Array.from({ length: 50 }), 7, async () => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			await new Promise((r) => setTimeout(r, 2));
			inFlight--;
		});
		expect(peak).toBe(7);
		expect(inFlight).toBe(0);
	});

	it('runs strictly one at a time with limit 1', async () => {
		const log: string[] = [];
		await mapConcurrent([0, 1, 2], 1, async (n) => {
			log.push(`start ${n}`);
			await tick();
			log.push(`end ${n}`);
		});
		expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
	});

	it('passes the index and handles an empty list', async () => {
		expect(await mapConcurrent([], 5, async () => 1)).toEqual([]);
		expect(await mapConcurrent(['a', 'b'], 5, async (s, i) => `${s}${i}`)).toEqual(['a0', 'b1']);
	});

	it('on failure starts nothing new, waits for running calls, and throws the lowest failed index', async () => {
		const gates = Array.from({ length: 10 }, () => deferred<void>());
		const started: number[] = [];
		const finished: number[] = [];
		const run = mapConcurrent(Array.from({ length: 10 }, (_, i) => i), 3, async (n) => {
			started.push(n);
			await gates[n].promise;
			finished.push(n);
			return n;
		});
		await tick();
		expect(started).toEqual([0, 1, 2]);
		gates[2].reject(new Error('item 2 failed'));
		await tick();
		gates[1].reject(new Error('item 1 failed'));
		await tick();
		// Item 0 is still running: the call must not settle before it does.
		let settled = false;
		run.then(
			() => (settled = true),
			() => (settled = true),
		);
		await tick();
		expect(settled).toBe(false);
		gates[0].resolve();
		await expect(run).rejects.toThrow('item 1 failed');
		expect(started).toEqual([0, 1, 2]);
		expect(finished).toEqual([0]);
	});

	it('throws the lowest failed index even when a higher one fails after it', async () => {
		const gates = Array.from({ length: 3 }, () => deferred<void>());
		const run = mapConcurrent([0, 1, 2], 3, async (n) => await gates[n].promise);
		await tick();
		gates[1].reject(new Error('item 1 failed'));
		await tick();
		gates[2].reject(new Error('item 2 failed'));
		gates[0].resolve();
		await expect(run).rejects.toThrow('item 1 failed');
	});
});
