/** Bounded parallelism for per-item work (pure: no timers). */

/**
 * `Promise.all(items.map(worker))` with at most `limit` at once. No item starts after the first failure; it
 * throws the lowest failed index's error, once the running items are done: the one a sequential run would
 * report first among those that ran.
 */
export async function mapConcurrent<T, R>(
	items: readonly T[],
	limit: number,
	worker: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const values: R[] = new Array(items.length);
	const lanes = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
	let next = 0;
	let failedAt = Infinity;
	let failure: unknown;

	const lane = async (): Promise<void> => {
		while (failedAt === Infinity && next < items.length) {
			const index = next++;
			try {
				values[index] = await worker(items[index], index);
			} catch (error) {
				if (index < failedAt) {
					failedAt = index;
					failure = error;
				}
			}
		}
	};

	await Promise.all(Array.from({ length: lanes }, lane));
	if (failedAt !== Infinity) throw failure;
	return values;
}
