/**
 * Queue case 29: case 16's burst (callbacks whose workflow reads each result with Image > Get from a
 * service limited to 20 requests/s) on the queue stack: the reads run on the workers, each worker with its
 * own limiter; the same requirements, and how the executions spread over the workers.
 */
import { sharedLimiterBurst } from '../cases/sharedLimiter';
import { QUEUE_MODE } from './bursts';
import type { QueueContext } from './cases';

export async function sharedLimiterOnWorkers(ctx: QueueContext): Promise<string> {
	return await sharedLimiterBurst(ctx, `${QUEUE_MODE}, reads limited to 20/s`);
}
