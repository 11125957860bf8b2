/**
 * Queue case 29: case 16's burst (callbacks whose workflow reads each result with Image > Get from a
 * service limited to 20 requests/s) on the queue stack: the reads run on the workers, each worker with its
 * own limiter; the same requirements, and the executions spread over both workers (from their logs): a burst
 * in queue mode runs each callback once, none lost, over every worker.
 */
import { sharedLimiterBurst } from '../cases/sharedLimiter';
import { QUEUE_MODE } from './bursts';
import { assert } from '../context';
import { workerRuns, type QueueContext } from './cases';

export async function sharedLimiterOnWorkers(ctx: QueueContext): Promise<string> {
	const before = new Set(workerRuns(ctx.stack.workers).started.keys());
	const detail = await sharedLimiterBurst(ctx, `${QUEUE_MODE}, reads limited to 20/s`);
	const perWorker: Record<string, number> = {};
	for (const [id, names] of workerRuns(ctx.stack.workers).started) {
		if (!before.has(id)) for (const name of names) perWorker[name] = (perWorker[name] ?? 0) + 1;
	}
	const spread = Object.entries(perWorker).map(([name, n]) => `${name} ${n}`).join(', ');
	const idle = ctx.stack.workers.filter((w) => !perWorker[w.name]);
	assert(idle.length === 0, `${idle.map((w) => w.name).join(', ')} ran none of the burst (${spread})`);
	return `${detail}; burst executions started per worker: ${spread}`;
}
