/**
 * Cases 12 and 13: Image > Moderate, Mode "Wait for Callback", in a real n8n. The execution is read from
 * n8n's own records: it waits, the service reads nothing while nothing is ready, the service's callbacks
 * resume it once with every result; then again with n8n restarted while the execution waits (case 14, the
 * Wait Timeout: waitTimeout.ts).
 * n8n 2.x runs example 05 (Route by Verdict). n8n 1.x resumes a node on its first output only, so there
 * example 05 must be refused before anything is submitted, and a workflow without routing is run instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_MAJOR } from '../../../dev/n8n/install';
import { EXAMPLES_DIR, readWorkflow } from '../../../dev/n8n/stack';
import { dataWritten, executeWorkflow } from '../../../dev/n8n/summary';
import { DEFAULT_OPTIONS } from '../../../dev/mock/options';
import { sleep, waitFor } from '../../../dev/wait';
import { assert, E2eContext } from '../context';
import type { QueueStack } from '../../../dev/n8n/queue';
import { workerRuns } from '../queue/cases';

export const ROUTED = readWorkflow(join(EXAMPLES_DIR, '05-wait-for-callback.json'));
const PLAIN = readWorkflow(join(__dirname, '..', 'workflows', 'wait-callback-plain.json'));
/** Route by Verdict with this mode needs n8n 2.x (see WAIT_CALLBACK_OUTPUT in the node). */
const WORKFLOW: typeof ROUTED = N8N_MAJOR >= 2 ? ROUTED : PLAIN;
export const NODE = 'Moderate and Wait for Callback';

type Row = { id: number; status: string };

export async function statusOf(ctx: E2eContext, id: number, workflowId = WORKFLOW.id): Promise<string> {
	const rows = (await ctx.db.executions(workflowId)) as Row[];
	return rows.find((row) => row.id === id)?.status ?? 'missing';
}

/** The status of an execution once its data is written too (dataWritten); until then 'saving'. */
export async function settledStatusOf(ctx: E2eContext, id: number, workflowId = WORKFLOW.id): Promise<string> {
	const status = await statusOf(ctx, id, workflowId);
	if (['running', 'new', 'missing'].includes(status)) return status;
	return dataWritten(await ctx.db.execution(id)) ? status : 'saving';
}

/** Waits until execution `id` of `workflowId` has ended `success` in n8n's records, its data written. */
export async function untilSucceeded(ctx: E2eContext, id: number, timeoutMs: number, everyMs: number, workflowId = WORKFLOW.id) {
	await waitFor('the execution to finish', async () => ((await settledStatusOf(ctx, id, workflowId)) === 'success' ? true : undefined), timeoutMs, everyMs);
}

/** n8n 1.x: the routed example fails before anything is sent, naming the n8n version it needs. */
async function expectRoutingRefused(ctx: E2eContext): Promise<string> {
	const since = Date.now();
	const run = await executeWorkflow(ctx.stack, ctx.db, ROUTED.id);
	assert(run.status === 'error', `example 05 on n8n 1.x ended ${run.status}, expected error`);
	const detail = await ctx.db.execution(run.executionId);
	const message = String(detail.error?.message ?? '');
	assert(/needs n8n 2\.0/.test(message), `example 05 on n8n 1.x failed with "${message.slice(0, 200)}"`);
	const sent = ctx.mock.submissionLog.filter((s) => s.time >= since).length;
	assert(sent === 0, `example 05 on n8n 1.x submitted ${sent} images before refusing`);
	return `example 05 refused (${message.slice(0, 60)}), nothing submitted; `;
}

/** The moderation ids the execution submitted, with the callback URL each was given. */
function submissionsSince(ctx: E2eContext, since: number) {
	return ctx.mock.requests
		.filter((r) => r.method === 'POST' && r.path === '/image' && r.time >= since && r.status < 300)
		.map((r) => ({
			callbackUrl: String((r.body as { options?: { callbackUrl?: string } }).options?.callbackUrl),
		}));
}

export function readsOf(ctx: E2eContext, ids: string[]) {
	return ctx.mock.requests.filter((r) => r.method === 'GET' && ids.some((id) => r.path === `/image/${id}`));
}

/** Starts example 05; resolves once the execution waits. */
export async function startWaiting(ctx: E2eContext) {
	const since = Date.now();
	const run = await executeWorkflow(ctx.stack, ctx.db, WORKFLOW.id);
	assert(run.status === 'waiting', `execution #${run.executionId} is ${run.status}, expected waiting`);
	const submitted = ctx.mock.submissionLog.filter((s) => s.time >= since).map((s) => s.id);
	assert(submitted.length === 3, `the execution submitted ${submitted.length} images, expected 3`);
	const urls = submissionsSince(ctx, since).map((s) => s.callbackUrl);
	// n8n 2.x signs resume URLs with the execution's resume token; 1.x does not.
	const prefix = `${ctx.stack.webhookUrl}/webhook-waiting/${run.executionId}/callback?${N8N_MAJOR >= 2 ? 'signature=' : 'item='}`;
	assert(
		urls.every((url) => url.startsWith(prefix)),
		`callback URLs are not this execution's resume URLs: ${urls.join(' ')}`,
	);
	return { executionId: run.executionId, ids: submitted, urls };
}

/** The finished execution's outputs, checked against the three images. */
export async function expectRouted(ctx: E2eContext, executionId: number, ids: string[]): Promise<string> {
	const detail = await ctx.db.execution(executionId);
	assert(detail.status === 'success', `execution #${executionId} ended ${detail.status}: ${JSON.stringify(detail.error)?.slice(0, 300)}`);
	if (WORKFLOW === PLAIN) {
		const [results] = detail.outputs[NODE] ?? [];
		const summary = (results ?? []).map((r: any, index: number) => `${r.id === ids[index] ? 'ok' : 'wrong-id'}:${r.isSafe}`);
		assert(summary.join(',') === 'ok:true,ok:true,ok:false', `results in input order: ${summary.join(',')}`);
		assert((detail.items['Results'] ?? []).length === 3, `Results got ${(detail.items['Results'] ?? []).length} items`);
		return 'one output, 3 results in input order (safe, safe, not safe)';
	}
	const outputs = detail.outputs[NODE] ?? [];
	assert(outputs.length === 4 && outputs[0].length === 0, `outputs of ${NODE}: ${JSON.stringify(outputs.map((o) => o.length))}`);
	const [, safe, flagged, review] = outputs;
	const one = (items: any[], pattern: RegExp, what: string) => {
		assert(items.length === 1 && pattern.test(items[0].imageUrl), `${what}: ${JSON.stringify(items.map((i) => i.imageUrl))}`);
		assert(ids.includes(items[0].moderation?.id), `${what} carries no submitted moderation id`);
	};
	one(safe, /beach/, 'Safe');
	one(flagged, /violence-gore/, 'Flagged');
	one(review, /casino/, 'Review');
	for (const [node, count] of [
		['Publish', 1],
		['Hold for Review', 1],
		['Send to Review', 1],
	] as const) {
		assert((detail.items[node] ?? []).length === count, `${node} got ${(detail.items[node] ?? []).length} items`);
	}
	assert(detail.items['Moderation Timed Out'] === undefined, 'Moderation Timed Out ran');
	return 'Safe beach, Flagged violence-gore, Review casino';
}

/** How many times n8n ran this execution to success: `n8n.workflow.success` events in n8n's event log. */
function successEvents(ctx: E2eContext, executionId: number): number {
	const dir = ctx.stack.n8n.dataDir;
	const files = readdirSync(dir).filter((file) => /^n8nEventLog.*\.log$/.test(file));
	assert(files.length > 0, `no n8n event log in ${dir}`);
	let count = 0;
	for (const file of files) {
		for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
			if (!line.includes('n8n.workflow.success')) continue;
			try {
				const event = JSON.parse(line) as { eventName?: string; payload?: { executionId?: unknown } };
				if (event.eventName === 'n8n.workflow.success' && String(event.payload?.executionId) === String(executionId)) count++;
			} catch {
				// a line being written
			}
		}
	}
	return count;
}

/**
 * The execution resumed exactly once, also after late callbacks had time to arrive. Regular mode: one
 * success event in n8n's event log. Queue mode: two worker jobs (the run up to the wait, the resume), each
 * started and finished once; there both workers append to one event log (n8nEventLog-worker.log), and a CI
 * run saw the success event missing there for 30 s after the record said success, so a success event may be
 * missing but never doubled.
 */
export async function expectOneResume(ctx: E2eContext, executionId: number): Promise<void> {
	const workers = (ctx.stack as Partial<QueueStack>).workers;
	if (workers?.length) {
		const jobs = () => {
			const runs = workerRuns(workers);
			return { started: runs.started.get(executionId)?.length ?? 0, finished: runs.finished.get(executionId)?.length ?? 0 };
		};
		await waitFor(`two finished worker jobs of execution #${executionId}`, () => (jobs().finished >= 2 ? true : undefined), 30_000, 500);
		await sleep(5_000);
		const { started, finished } = jobs();
		assert(started === 2 && finished === 2, `execution #${executionId}: workers started ${started} and finished ${finished} jobs (2 each expected: the run up to the wait, one resume)`);
		const runs = successEvents(ctx, executionId);
		assert(runs <= 1, `execution #${executionId} ran to success ${runs} times (resumed more than once)`);
		return;
	}
	await waitFor('the success event', () => (successEvents(ctx, executionId) >= 1 ? true : undefined), 30_000, 500);
	await sleep(5_000);
	const runs = successEvents(ctx, executionId);
	assert(runs === 1, `execution #${executionId} ran to success ${runs} times (resumed more than once)`);
}

async function post(url: string, body: unknown): Promise<number> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(30_000),
	});
	await res.text();
	return res.status;
}

export async function waitForCallback(ctx: E2eContext): Promise<string> {
	// The results are held until the checks on the waiting execution are done, however long a loaded
	// machine takes to get there.
	ctx.mock.configure({ callbackRetries: 8, callbackBackoffMs: 500, callbackTimeoutMs: 30_000 });
	ctx.mock.holdResults();
	try {
		const refused = N8N_MAJOR >= 2 ? '' : await expectRoutingRefused(ctx);
		const { executionId, ids, urls } = await startWaiting(ctx);
		await sleep(2_000);
		assert((await statusOf(ctx, executionId)) === 'waiting', `execution #${executionId} is not waiting after 2 s`);
		assert(readsOf(ctx, ids).length === 0, `the service saw ${readsOf(ctx, ids).length} reads while nothing was ready`);

		// Refused without resuming: n8n 2.x's own signature check (1.x has none), then the node's key check.
		let signature = 'n8n 1.x: no signature to forge';
		if (N8N_MAJOR >= 2) {
			const forged = new URL(urls[0]);
			forged.searchParams.set('signature', 'f'.repeat(forged.searchParams.get('signature')?.length ?? 64));
			const forgedStatus = await post(forged.toString(), { id: ids[0] });
			assert(forgedStatus === 401, `a wrong signature was answered ${forgedStatus}`);
			signature = '401 to a forged signature';
		}
		const wrongKey = new URL(urls[0]);
		wrongKey.searchParams.set('key', '0'.repeat(64));
		const keyStatus = await post(wrongKey.toString(), { id: ids[0] });
		assert(keyStatus === 401, `a wrong key was answered ${keyStatus}`);
		assert((await statusOf(ctx, executionId)) === 'waiting', `execution #${executionId} left the wait after refused calls`);

		ctx.mock.releaseResults();
		await untilSucceeded(ctx, executionId, 90_000, 500);
		const routed = await expectRouted(ctx, executionId, ids);
		await expectOneResume(ctx, executionId);
		const attempts = ctx.mock.callbacks.filter((c) => ids.includes(c.moderationId));
		const statuses = attempts.map((c) => c.status ?? c.error).join(',');
		assert(attempts.some((c) => c.status === 200), `no callback was accepted: ${statuses}`);

		// A repeated callback after the execution went on: answered, nothing started.
		const late = await post(urls[0], { id: ids[0] });
		assert(late === 409, `a late callback was answered ${late}`);
		const rows = (await ctx.db.executions(WORKFLOW.id)) as Row[];
		assert(rows.filter((row) => row.id > executionId).length === 0, 'a late callback started an execution');

		return `${refused}#${executionId} waited with 0 reads, ${signature}, 401 to a wrong key, resumed once (${routed}; callback answers ${statuses}; ${readsOf(ctx, ids).length} reads), late callback 409`;
	} finally {
		ctx.mock.releaseResults();
		ctx.mock.configure({
			processMs: DEFAULT_OPTIONS.processMs,
			callbackRetries: DEFAULT_OPTIONS.callbackRetries,
			callbackBackoffMs: DEFAULT_OPTIONS.callbackBackoffMs,
			callbackTimeoutMs: DEFAULT_OPTIONS.callbackTimeoutMs,
		});
	}
}

/** Case 13: n8n stopped and started again while the execution waits; the callbacks then resume it. */
export async function waitForCallbackAcrossRestart(ctx: E2eContext): Promise<string> {
	// The results are held until n8n is back and the execution seen waiting, however long the restart takes.
	ctx.mock.configure({ callbackRetries: 8, callbackBackoffMs: 1_000, callbackTimeoutMs: 30_000 });
	ctx.mock.holdResults();
	try {
		const { executionId, ids } = await startWaiting(ctx);
		const t0 = Date.now();
		await ctx.stack.n8n.stop();
		await ctx.stack.n8n.start();
		await ctx.stack.rest.setupOwnerAndLogin();
		const restartSeconds = ((Date.now() - t0) / 1000).toFixed(0);
		assert((await statusOf(ctx, executionId)) === 'waiting', `execution #${executionId} is not waiting after the restart`);
		assert(readsOf(ctx, ids).length === 0, `the service saw reads before any result was ready`);

		ctx.mock.releaseResults();
		await untilSucceeded(ctx, executionId, 150_000, 1_000);
		const routed = await expectRouted(ctx, executionId, ids);
		await expectOneResume(ctx, executionId);
		return `#${executionId} waited across an n8n restart (${restartSeconds} s), then resumed: ${routed}`;
	} finally {
		ctx.mock.releaseResults();
		ctx.mock.configure({
			processMs: DEFAULT_OPTIONS.processMs,
			callbackRetries: DEFAULT_OPTIONS.callbackRetries,
			callbackBackoffMs: DEFAULT_OPTIONS.callbackBackoffMs,
			callbackTimeoutMs: DEFAULT_OPTIONS.callbackTimeoutMs,
		});
	}
}
