/**
 * Cases 2 and 3: deferred moderations whose callbackUrl is the trigger's production URL. The results are read
 * from n8n's own records (execution_entity / execution_data), not from logs.
 */
import { randomUUID } from 'node:crypto';
import { N8N_MAJOR } from '../../../dev/n8n/install';
import { readWorkflow, EXAMPLES_DIR, WorkflowFile } from '../../../dev/n8n/stack';
import { executeWorkflow } from '../../../dev/n8n/summary';
import { join } from 'node:path';
import { sleep, waitFor } from '../../../dev/wait';
import { assert, E2eContext, finishedExecutions } from '../context';

export const TRIGGER_WORKFLOW = readWorkflow(join(EXAMPLES_DIR, '03-deferred-moderation-trigger.json'));
const SUBMIT_WORKFLOW = readWorkflow(join(EXAMPLES_DIR, '03b-deferred-moderation-submit.json'));
const triggerNode = TRIGGER_WORKFLOW.nodes.find((n) => /contentModerationTrigger$/.test(n.type))!;

/** The production URL of `workflow`'s Content Moderation Trigger (the deferred example's by default), without a token. */
export function triggerUrl(ctx: E2eContext, workflow: WorkflowFile = TRIGGER_WORKFLOW): string {
	const node = workflow === TRIGGER_WORKFLOW ? triggerNode : workflow.nodes.find((n: any) => /contentModerationTrigger$/.test(n.type))!;
	return `${ctx.stack.webhookUrl}/webhook/${node.webhookId}/callback`;
}

/** The production URL with a token (by default the credential's Callback Secret, as the action node adds it). */
export function callbackUrl(ctx: E2eContext, token = ctx.stack.callbackSecret, workflow: WorkflowFile = TRIGGER_WORKFLOW): string {
	return `${triggerUrl(ctx, workflow)}?token=${encodeURIComponent(token)}`;
}

async function triggerRuns(ctx: E2eContext) {
	return finishedExecutions(ctx.db, TRIGGER_WORKFLOW.id);
}

/**
 * Case 2: the example submitter (deferred, callbackUrl = the trigger's URL as is) run once;
 * the callback gets through on the credential's Callback Secret alone: no token is typed in either workflow.
 */
export async function deferredWithTrigger(ctx: E2eContext): Promise<string> {
	const secret = ctx.stack.callbackSecret;
	const trigger = triggerNode.parameters;
	const submitter = SUBMIT_WORKFLOW.nodes.find((n) => /contentModeration$/.test(n.type))!.parameters;
	assert(!trigger.callbackToken && !/token=/.test(submitter.options.callbackUrl), 'a token is typed in an example workflow');
	assert(!JSON.stringify([TRIGGER_WORKFLOW, SUBMIT_WORKFLOW]).includes(secret), 'an example workflow holds the secret');
	const before = (await ctx.db.executions(TRIGGER_WORKFLOW.id)).length;
	const submitRun = await executeWorkflow(ctx.stack, ctx.db, SUBMIT_WORKFLOW.id);
	assert(submitRun.status === 'success', `submitter execution #${submitRun.executionId} status ${submitRun.status}`);
	const submitted = submitRun.items['Submit for Deferred Moderation'] ?? [];
	const expectedImages = 2;
	assert(submitted.length === expectedImages, `submitter returned ${submitted.length} items, expected ${expectedImages}`);
	const ids = submitted.map((i) => i.id);
	assert(ids.every((id) => typeof id === 'string' && id.length >= 3), `deferred ids missing: ${JSON.stringify(submitted)}`);

	// One trigger execution per submitted image, each carrying that image's full result.
	const runs = await waitFor(
		`${expectedImages} trigger executions`,
		async () => {
			const rows = await triggerRuns(ctx);
			return rows.length - before >= expectedImages ? rows.slice(before) : undefined;
		},
		60_000,
	);
	await sleep(1500); // a duplicate delivery would show up here
	const after = await triggerRuns(ctx);
	assert(after.length - before === expectedImages, `expected ${expectedImages} trigger executions, got ${after.length - before}`);
	const seen: string[] = [];
	let firstItem: Record<string, unknown> | undefined;
	for (const run of runs) {
		assert(run.status === 'success', `trigger execution ${run.id} status ${run.status}`);
		const detail = await ctx.db.execution(run.id);
		const [item] = detail.items['Moderation Completed'] ?? [];
		assert(item && ids.includes(item.id), `trigger output has no submitted id: ${JSON.stringify(item).slice(0, 300)}`);
		assert(typeof item.isSafe === 'boolean' && item.riskScores && item.hash, `trigger output is not a full result`);
		firstItem ??= item;
		const branch = (detail.items['Approve'] ?? []).length ? 'Approve' : 'Send to Review';
		assert((detail.items[branch] ?? []).length === 1, `trigger workflow did not reach Approve/Send to Review`);
		seen.push(`${item.id.slice(0, 8)}:${item.isSafe ? 'safe' : 'flagged'}->${branch}`);
	}
	const mockCalls = ctx.mock.callbacks.filter((c) => ids.includes(c.moderationId));
	assert(mockCalls.every((c) => c.status === 200), `mock saw callback statuses ${mockCalls.map((c) => c.status)}`);
	// What the service was given: the URL the user pasted plus the secret the node added.
	const sent = ctx.mock.requests.filter((r) => r.method === 'POST' && r.path === '/image').slice(-expectedImages);
	const urls = sent.map((r) => (r.body as { options?: { callbackUrl?: string } }).options?.callbackUrl);
	assert(urls.every((u) => u === callbackUrl(ctx)), `callback URLs sent: ${JSON.stringify(urls)}`);
	const answer = await answerMeansStarted(ctx, firstItem!);
	return `${seen.join(', ')}; callback URL = trigger URL + ?token=<credential secret>; ${answer}`;
}

async function postToTrigger(ctx: E2eContext, body: unknown): Promise<{ status: number; text: string }> {
	const res = await fetch(callbackUrl(ctx), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, text: await res.text() };
}

/**
 * The trigger takes n8n's answer to the sender as the sign that n8n started the execution
 * (trigger/executionStarted.ts, n8n gives a node no other). n8n 2.x answers once the execution exists;
 * n8n 1.x answers before it creates it. A repeat is then answered duplicate: had n8n's answer changed so
 * that the trigger cannot read it, the repeat would wait for the first delivery's outcome and get 503.
 */
async function answerMeansStarted(ctx: E2eContext, item: Record<string, unknown>): Promise<string> {
	const { receivedAt: _at, event: _event, ...result } = item;
	const id = randomUUID();
	const before = (await ctx.db.executions(TRIGGER_WORKFLOW.id)).length;
	const first = await postToTrigger(ctx, { event: 'moderation.completed', data: { ...result, id } });
	const rowsAtAnswer = (await ctx.db.executions(TRIGGER_WORKFLOW.id)).length - before;
	assert(first.status === 200, `a new completion answered ${first.status} ${first.text}`);
	if (N8N_MAJOR >= 2) assert(rowsAtAnswer === 1, `n8n answered with ${rowsAtAnswer} new executions in its records, not 1`);
	const repeat = await postToTrigger(ctx, { event: 'moderation.completed', data: { id } });
	assert(repeat.status === 200 && /"duplicate":true/.test(repeat.text), `its repeat answered ${repeat.status} ${repeat.text}`);
	await waitFor('the new completion\'s execution to finish', async () => (await finishedExecutions(ctx.db, TRIGGER_WORKFLOW.id)).length >= before + 1 || undefined, 30_000);
	const started = (await ctx.db.executions(TRIGGER_WORKFLOW.id)).length - before;
	assert(started === 1, `a new completion and its repeat started ${started} executions`);
	return `n8n's answer read as started (${rowsAtAnswer} execution in n8n's records at the answer), the repeat answered duplicate`;
}

/** Case 3: the same delivery with a wrong token: 401 and no execution. */
export async function wrongToken(ctx: E2eContext): Promise<string> {
	const before = (await ctx.db.executions(TRIGGER_WORKFLOW.id)).length;
	// Directly, as any caller would.
	const direct = await fetch(callbackUrl(ctx, 'wrong-token'), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ id: 'forged-1', isSafe: true }),
	});
	assert(direct.status === 401, `direct POST with a wrong token answered ${direct.status}`);
	const noToken = await fetch(callbackUrl(ctx).replace(/\?.*$/, ''), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ id: 'forged-2', isSafe: true }),
	});
	assert(noToken.status === 401, `direct POST without a token answered ${noToken.status}`);
	// And through the service: a deferred moderation whose callbackUrl carries the wrong token.
	const res = await fetch(`${ctx.mock.url}/image`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.mock.token}` },
		body: JSON.stringify({
			image: 'https://images.example.com/wrong-token-test.jpg',
			options: { defer: true, callbackUrl: callbackUrl(ctx, 'wrong-token') },
		}),
	});
	const { id } = (await res.json()) as { id: string };
	assert(res.status < 300 && id, `mock POST /image answered ${res.status}`);
	const attempt = await waitFor(
		'the mock to deliver the callback',
		async () => ctx.mock.callbacks.find((c) => c.moderationId === id && c.status !== undefined),
		30_000,
	);
	assert(attempt.status === 401, `n8n answered the service's callback with ${attempt.status}`);
	await sleep(2000);
	const after = (await ctx.db.executions(TRIGGER_WORKFLOW.id)).length;
	assert(after === before, `${after - before} trigger executions started for wrong-token calls`);
	return '3 calls (direct wrong token, no token, service with wrong token) -> 401, 0 executions';
}

export const BURST_PROCESS_MS = 3000;

/** Submits `count` deferred moderations whose callbacks go to `url`; resolves with their ids. */
export function submitDeferred(ctx: E2eContext, count: number, url: string, tag = 'burst'): Promise<string[]> {
	return Promise.all(
		Array.from({ length: count }, async (_, i) => {
			const res = await fetch(`${ctx.mock.url}/image`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.mock.token}` },
				body: JSON.stringify({
					image: `https://images.example.com/${tag}-${i}.jpg`,
					options: { defer: true, callbackUrl: url, meta: { [tag]: i } },
				}),
			});
			const body = (await res.json()) as { id: string };
			if (!body.id) throw new Error(`POST /image ${i} answered ${res.status}`);
			return body.id;
		}),
	);
}
