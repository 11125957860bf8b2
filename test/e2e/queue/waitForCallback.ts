/**
 * Wait for Callback in queue mode: example 05 started from main runs on a worker until it waits; the
 * service's callbacks reach the webhook processor (WEBHOOK_URL points there, so `$execution.resumeUrl`
 * does), which reads the node's state from the waiting execution in Postgres and enqueues the resume for a
 * worker. Nothing is shared in memory between those processes.
 */
import { DEFAULT_OPTIONS } from '../../../dev/mock/options';
import { waitFor } from '../../../dev/wait';
import { expectOneResume, expectRouted, readsOf, ROUTED, untilSucceeded } from '../cases/waitForCallback';
import { assert } from '../context';
import { enqueuedBy, QueueContext, workerRuns } from './cases';

export async function waitForCallbackOnWorkers(ctx: QueueContext): Promise<string> {
	// The results are held until the execution is seen waiting with nothing read.
	ctx.mock.configure({ callbackRetries: 8, callbackBackoffMs: 500, callbackTimeoutMs: 30_000 });
	ctx.mock.holdResults();
	try {
		const before = Math.max(0, ...(await ctx.db.executions(ROUTED.id)).map((row) => row.id));
		const since = Date.now();
		// Resolves once the execution waits or ends, as `n8n execute` (main enqueues the manual run for a worker).
		const run = ctx.stack.run(ROUTED.id, 240_000).then(
			(id) => ({ id }),
			(error: Error) => ({ error }),
		);
		const waiting = await waitFor(
			'the execution to wait',
			async () => (await ctx.db.executions(ROUTED.id)).find((row) => row.id > before && row.status === 'waiting'),
			120_000,
			300,
		);
		const ids = ctx.mock.submissionLog.filter((s) => s.time >= since).map((s) => s.id);
		assert(ids.length === 3, `the execution submitted ${ids.length} images, expected 3`);
		assert(readsOf(ctx, ids).length === 0, `the service saw reads while nothing was ready`);
		const urls = ctx.mock.requests
			.filter((r) => r.method === 'POST' && r.path === '/image' && r.time >= since)
			.map((r) => String((r.body as { options?: { callbackUrl?: string } }).options?.callbackUrl));
		assert(
			urls.every((url) => url.startsWith(`${ctx.stack.webhookUrl}/webhook-waiting/${waiting.id}/callback?signature=`)),
			`callback URLs do not point at the webhook processor: ${urls.join(' ')}`,
		);
		ctx.mock.releaseResults();

		const result = await run;
		if ('error' in result) throw result.error;
		assert(result.id === waiting.id, `run started execution ${result.id}, the waiting one was ${waiting.id}`);
		await untilSucceeded(ctx, waiting.id, 240_000, 500, ROUTED.id);
		const routed = await expectRouted(ctx, waiting.id, ids);
		await expectOneResume(ctx, waiting.id);

		const { started, finished: done } = workerRuns(ctx.stack.workers);
		const workers = started.get(waiting.id) ?? [];
		assert(workers.length >= 2, `workers started execution ${waiting.id} ${workers.length} times (first run and resume expected)`);
		assert((done.get(waiting.id) ?? []).length >= 1, `no worker finished execution ${waiting.id}`);
		assert(enqueuedBy(ctx.stack.webhook).has(waiting.id), `the webhook processor did not enqueue the resume of ${waiting.id}`);
		const attempts = ctx.mock.callbacks.filter((c) => ids.includes(c.moderationId)).map((c) => c.status ?? c.error);
		return `#${waiting.id} waited with 0 reads; callbacks to the webhook processor (answers ${attempts.join(',')}), resume enqueued by it, run by ${workers.join(' then ')}; ${routed}`;
	} finally {
		ctx.mock.releaseResults();
		ctx.mock.configure({
			callbackRetries: DEFAULT_OPTIONS.callbackRetries,
			callbackBackoffMs: DEFAULT_OPTIONS.callbackBackoffMs,
			callbackTimeoutMs: DEFAULT_OPTIONS.callbackTimeoutMs,
		});
	}
}
