/**
 * Case 14: Wait for Callback when no result comes in time. n8n resumes the execution at the Wait Timeout
 * without running the node and hands the input items unchanged to its first output: Timed Out with Route
 * by Verdict (n8n 2.x), the one output without it (n8n 1.x).
 */
import { join } from 'node:path';

import { N8N_MAJOR } from '../../../dev/n8n/install';
import type { QueueStack } from '../../../dev/n8n/queue';
import { readWorkflow } from '../../../dev/n8n/stack';
import { executeWorkflow } from '../../../dev/n8n/summary';
import { waitFor } from '../../../dev/wait';
import { assert, E2eContext } from '../context';
import { settledRuns } from '../queue/cases';
import { NODE, settledStatusOf } from './waitForCallback';

/** A copy of example 05 (or its plain form on n8n 1.x) with a Wait Timeout of 5 s, its images under TIMEOUT_IMAGES. */
const TIMEOUT_WORKFLOW = readWorkflow(
	join(__dirname, '..', 'workflows', N8N_MAJOR >= 2 ? 'wait-callback-timeout-routed.json' : 'wait-callback-timeout-plain.json'),
);

const TIMEOUT_IMAGES = 'https://images.example.com/wait-timeout/';

export async function waitForCallbackTimeout(ctx: E2eContext): Promise<string> {
	// No result comes before n8n acts on the 5 s timeout (its WaitTracker looks once a minute): held until then,
	// its own images only, since other cases run meanwhile (suites.ts: in the background).
	const release = ctx.mock.holdResultsOf((subject) => subject.startsWith(TIMEOUT_IMAGES));
	try {
		const run = await executeWorkflow(ctx.stack, ctx.db, TIMEOUT_WORKFLOW.id);
		assert(run.status === 'waiting', `execution #${run.executionId} is ${run.status}, expected waiting`);
		const t0 = Date.now();
		// n8n's WaitTracker looks for due executions once a minute.
		await waitFor(
			'n8n to resume the execution at its Wait Timeout',
			// Past 'waiting' it is 'running' for a moment while n8n resumes it: wait for where it ends.
			async () => (['waiting', 'running', 'new', 'saving'].includes(await settledStatusOf(ctx, run.executionId, TIMEOUT_WORKFLOW.id)) ? undefined : true),
			150_000,
			1_000,
		);
		const seconds = ((Date.now() - t0) / 1000).toFixed(0);
		const detail = await ctx.db.execution(run.executionId);
		assert(detail.status === 'success', `execution #${run.executionId} ended ${detail.status}`);
		const outputs = detail.outputs[NODE] ?? [];
		const first = outputs[0] ?? [];
		assert(
			first.length === 3 && first.every((item: any) => typeof item.imageUrl === 'string' && item.isSafe === undefined && item.verdict === undefined && item.moderation === undefined),
			`first output at the timeout: ${JSON.stringify(first).slice(0, 300)}`,
		);
		assert(outputs.slice(1).every((items) => items.length === 0), `later outputs at the timeout: ${JSON.stringify(outputs.map((o) => o.length))}`);
		const next = N8N_MAJOR >= 2 ? 'Moderation Timed Out' : 'Results';
		assert((detail.items[next] ?? []).length === 3, `${next} got ${(detail.items[next] ?? []).length} items`);
		for (const other of ['Publish', 'Hold for Review', 'Send to Review']) {
			assert(detail.items[other] === undefined, `${other} ran at the timeout`);
		}
		let where = '';
		if ('workers' in ctx.stack) {
			// Queue mode: main's wait tracker enqueues the resume; a worker runs it (two jobs, each logged when done).
			const id = run.executionId;
			const runs = await settledRuns((ctx.stack as QueueStack).workers, ({ started, finished }) => (started.get(id)?.length ?? 0) >= 2 && (finished.get(id)?.length ?? 0) >= 2);
			const jobs = runs.started.get(id) ?? [];
			assert(jobs.length === 2, `workers started execution #${run.executionId} ${jobs.length} times (the run up to the wait and the resume expected)`);
			where = `, run by ${jobs.join(' then ')}`;
		}
		return `#${run.executionId} resumed by n8n ${seconds} s after it began waiting (Wait Timeout 5 s)${where}: the 3 input items unchanged on ${next}, nothing on the verdict outputs`;
	} finally {
		// Their callbacks now find the execution over (409): answered, nothing started.
		release();
	}
}
