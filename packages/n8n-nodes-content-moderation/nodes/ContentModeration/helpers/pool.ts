/** Bounded parallelism for per-item work (pure: no timers). */

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Runs `worker` for every item, at most `limit` at once; outcomes in input order, never a rejection. With
 * `stopOnError` no item starts after the first failure, and the slots of those not started stay undefined.
 */
export async function mapSettled<T, R>(
	items: readonly T[],
	limit: number,
	worker: (item: T, index: number) => Promise<R>,
	stopOnError = false,
): Promise<Array<Settled<R> | undefined>> {
	const results: Array<Settled<R> | undefined> = new Array(items.length);
	const lanes = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
	let next = 0;
	let stopped = false;

	const lane = async (): Promise<void> => {
		while (!stopped && next < items.length) {
			const index = next++;
			try {
				results[index] = { ok: true, value: await worker(items[index], index) };
			} catch (error) {
				results[index] = { ok: false, error };
				if (stopOnError) stopped = true;
			}
		}
	};

	await Promise.all(Array.from({ length: lanes }, lane));
	return results;
}

/**
 * `Promise.all(items.map(worker))` with at most `limit` at once. It throws the lowest failed index's error,
 * once the running items are done: the one a sequential run would report first among those that ran.
 */
export async function mapConcurrent<T, R>(
	items: readonly T[],
	limit: number,
	worker: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const settled = await mapSettled(items, limit, worker, true);
	const values: R[] = new Array(items.length);
	for (let i = 0; i < settled.length; i++) {
		const outcome = settled[i];
		if (outcome === undefined) continue;
		if (!outcome.ok) throw outcome.error;
		values[i] = outcome.value;
	}
	return values;
}
