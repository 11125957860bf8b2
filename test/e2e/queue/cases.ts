/**
 * Queue-mode cases on where work ran: the workers' logs name every execution they start and finish, the
 * webhook processor's log names every execution it enqueues; Deferred and Wait on a worker. The bursts and
 * the worker killed in the middle of one are in bursts.ts. Everything counted is read from n8n's records and logs.
 */
import { readFileSync } from 'node:fs';
import { QueueProcess, QueueStack } from '../../../dev/n8n/queue';
import { ALL_OPS_WORKFLOW } from '../cases/allOperations';
import { callbackUrl, deferredWithTrigger, TRIGGER_WORKFLOW } from '../cases/deferred';
import { waitFor } from '../../../dev/wait';
import { assert, E2eContext } from '../context';

export interface QueueContext extends E2eContext {
	stack: QueueStack;
}

/** execution id -> the workers whose log says it started / finished it */
export function workerRuns(workers: QueueProcess[]): { started: Map<number, string[]>; finished: Map<number, string[]> } {
	const started = new Map<number, string[]>();
	const finished = new Map<number, string[]>();
	for (const w of workers) {
		for (const m of w.log().matchAll(/Worker (started|finished) execution (\d+) \(job/g)) {
			const map = m[1] === 'started' ? started : finished;
			const id = Number(m[2]);
			map.set(id, [...(map.get(id) ?? []), w.name]);
		}
	}
	return { started, finished };
}

/**
 * A worker saves an execution (workflowExecuteAfter) before it logs "Worker finished execution" (n8n's
 * scaling/job-processor.js), so a record can say success a moment before the log names it: logs are
 * read again until `settled` holds, for at most 15 s.
 */
export async function settledRuns(
	workers: QueueProcess[],
	settled: (runs: ReturnType<typeof workerRuns>) => boolean,
): Promise<ReturnType<typeof workerRuns>> {
	try {
		return await waitFor('the workers\' logs to name every finished execution', () => {
			const runs = workerRuns(workers);
			return settled(runs) ? runs : undefined;
		}, 15_000, 200);
	} catch {
		return workerRuns(workers);
	}
}

/** The one worker that started and finished execution `id` (once each), or a failed assertion naming `what`. */
export async function ranOnOneWorker(ctx: QueueContext, id: number, what: string): Promise<string> {
	const once = ({ started, finished }: ReturnType<typeof workerRuns>) =>
		started.get(id)?.length === 1 && finished.get(id)?.length === 1 && finished.get(id)?.[0] === started.get(id)?.[0];
	const runs = await settledRuns(ctx.stack.workers, once);
	const on = runs.started.get(id);
	assert(on && once(runs), `${what} #${id} not run by exactly one worker (started: ${on}, finished: ${runs.finished.get(id)})`);
	return on[0];
}

/** Execution ids the webhook processor enqueued (n8n logs "Enqueued execution N (job M)" on every enqueue). */
export function enqueuedBy(p: { log(): string }): Set<number> {
	return new Set([...p.log().matchAll(/Enqueued execution (\d+) \(job/g)].map((m) => Number(m[1])));
}

/**
 * Every execution so far, of every workflow, was started and finished by a worker; every trigger execution
 * was enqueued by the webhook processor and none by main; main refuses production webhooks.
 */
export async function ranOnWorkers(ctx: QueueContext): Promise<string> {
	const { stack } = ctx;
	// It needs a manual run and a trigger execution: case 2 makes both; alone, this case does.
	if ((await ctx.db.executions(TRIGGER_WORKFLOW.id)).length === 0) await deferredWithTrigger(ctx);
	const rows = await stack.records.all<{ id: number; workflowId: string; status: string }>(
		`SELECT id, "workflowId", status FROM execution_entity ORDER BY id`,
	);
	// A Wait for Callback execution is two jobs: the run up to the wait, then the resume.
	const waits = await stack.records.all<{ id: string }>(`SELECT id FROM workflow_entity WHERE nodes::text LIKE '%"waitCallback"%'`);
	const jobs = (workflowId: string) => (waits.some((w) => w.id === workflowId) ? 2 : 1);
	const offWorker = ({ started, finished }: ReturnType<typeof workerRuns>) =>
		rows.filter(
			(r) => started.get(Number(r.id))?.length !== jobs(r.workflowId) || finished.get(Number(r.id))?.length !== jobs(r.workflowId),
		);
	const runs = await settledRuns(stack.workers, (settled) => offWorker(settled).length === 0);
	const { started } = runs;
	const notOnWorker = offWorker(runs);
	assert(notOnWorker.length === 0, `${notOnWorker.length} executions not started and finished by a worker once per job: ${notOnWorker.slice(0, 5).map((r) => `${r.id}(${r.workflowId})`)}`);
	const resumed = rows.filter((r) => jobs(r.workflowId) === 2).length;
	const perWorker: Record<string, number> = {};
	for (const names of started.values()) for (const n of names) perWorker[n] = (perWorker[n] ?? 0) + 1;
	const triggerRuns = rows.filter((r) => r.workflowId === TRIGGER_WORKFLOW.id).map((r) => Number(r.id));
	assert(triggerRuns.length > 0, 'no trigger executions yet');
	const viaWebhook = enqueuedBy(stack.webhook);
	const viaMain = enqueuedBy({ log: () => readFileSync(stack.n8n.logFile, 'utf8') });
	const notViaWebhook = triggerRuns.filter((id) => !viaWebhook.has(id) || viaMain.has(id));
	assert(notViaWebhook.length === 0, `${notViaWebhook.length} trigger executions not enqueued by the webhook processor: ${notViaWebhook.slice(0, 5)}`);
	const main = await fetch(callbackUrl(ctx).replace(stack.webhookUrl, stack.n8n.url), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{"id":"to-main"}',
	});
	assert(main.status === 404, `main answered a production callback with ${main.status}, expected 404 (N8N_DISABLE_PRODUCTION_MAIN_PROCESS)`);
	const manual = rows.length - triggerRuns.length;
	return `${rows.length} executions, each started and finished by one worker per job (${resumed} waited and were resumed: 2 jobs) (${Object.entries(perWorker).map(([k, v]) => `${k}: ${v}`).join(', ')}); ${triggerRuns.length} trigger executions enqueued by the webhook processor, 0 by main (main: ${main.status} to callbacks); ${manual} manual runs enqueued by main`;
}

/** Deferred and Wait: the all-operations run's "Moderate and Wait" ran on a worker, polled, and output the full result. */
export async function deferredAndWaitOnWorker(ctx: QueueContext): Promise<string> {
	const since = ctx.mock.requests.length;
	const id = await ctx.stack.run(ALL_OPS_WORKFLOW, 180_000);
	const detail = await ctx.db.execution(id);
	assert(detail.status === 'success', `execution ${id} status ${detail.status}`);
	const [waited] = detail.items['Moderate and Wait'] ?? [];
	for (const field of ['id', 'isSafe', 'confidence', 'riskScores', 'nsfwCategories', 'suggestedActions', 'summary', 'hash']) {
		assert(waited && waited[field] !== undefined, `Moderate and Wait output lacks ${field}: ${JSON.stringify(waited).slice(0, 300)}`);
	}
	const polls = ctx.mock.requests.slice(since).filter((r) => r.method === 'GET' && r.path === `/image/${waited.id}`);
	assert(polls.length >= 1, `the mock saw no GET /image/${waited.id}: the result was not polled`);
	const on = await ranOnOneWorker(ctx, id, 'execution');
	return `execution #${id} on ${on}: ${polls.length} poll(s) of GET /image/${waited.id.slice(0, 8)}…, full result (isSafe ${waited.isSafe}, risk ${waited.riskScores.overall})`;
}
