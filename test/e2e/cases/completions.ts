/**
 * Cases 42-44: a published version 3 Content Moderation Trigger receiving the service's `{event, data}`
 * callbacks. 42: the mock's own callbacks (an image result, a text result, a review decision through the
 * account webhook) each start exactly one execution. 43/44: a retrying sender (gives up on an attempt after
 * 5 s, 3 attempts, as webhook senders do) sends N completions at once to the trigger, then the same to n8n's
 * own Webhook node in the same n8n: executions must equal distinct completions for the trigger; both
 * acknowledgement times are reported. Everything counted is read from n8n's records.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { QueueStack } from '../../../dev/n8n/queue';
import { readWorkflow } from '../../../dev/n8n/stack';
import { sleep, waitFor } from '../../../dev/wait';
import { assert, E2eContext, finishedExecutions } from '../context';
import { callbackUrl } from './deferred';

export const COMPLETIONS_V3 = readWorkflow(join(__dirname, '..', 'workflows', 'completions-v3.json'));
export const COMPLETIONS_WEBHOOK = readWorkflow(join(__dirname, '..', 'workflows', 'completions-webhook.json'));
export const COMPLETIONS_V3_PLAIN = readWorkflow(join(__dirname, '..', 'workflows', 'completions-v3-plain.json'));
const TRIGGER_NAME = 'Completion Received';

/** The v3 trigger's production URL with the credential's Callback Secret as ?token= (the account webhook). */
export function v3Url(ctx: E2eContext): string {
	return callbackUrl(ctx, ctx.stack.callbackSecret, COMPLETIONS_V3);
}

function webhookNodeUrl(ctx: E2eContext): string {
	const node = COMPLETIONS_WEBHOOK.nodes.find((n: any) => n.type === 'n8n-nodes-base.webhook')!;
	return `${ctx.stack.webhookUrl}/webhook/${node.parameters.path}`;
}

/** Trigger items (event, id) of the workflow's executions after `skip` of them. */
async function startedItems(ctx: E2eContext, workflowId: string, nodeName: string, skip: number) {
	const rows = (await ctx.db.executions(workflowId)).slice(skip);
	const items: Array<{ execution: number; status: string; json: any }> = [];
	for (const row of rows) {
		const [json] = (await ctx.db.execution(row.id)).items[nodeName] ?? [];
		items.push({ execution: Number(row.id), status: row.status, json });
	}
	return items;
}

async function mockPost(ctx: E2eContext, path: string, body: unknown): Promise<any> {
	const res = await fetch(`${ctx.mock.url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.mock.token}` },
		body: JSON.stringify(body),
	});
	assert(res.status === 200, `mock POST ${path} answered ${res.status}`);
	return await res.json();
}

/** Case 42: the mock's own callbacks for an image, a text and a review decision: one execution each. */
export async function mockCompletions(ctx: E2eContext): Promise<string> {
	const url = v3Url(ctx);
	const before = (await ctx.db.executions(COMPLETIONS_V3.id)).length;
	ctx.mock.configure({ webhookUrl: url });
	try {
		const image = await mockPost(ctx, '/image', { image: 'https://images.example.com/e2e-42.jpg', options: { callbackUrl: url } });
		const text = await mockPost(ctx, '/text', { text: 'you absolute idiot', options: { callbackUrl: url, bannedWords: ['absolute'] } });
		const item = await mockPost(ctx, '/queues/e2e-reviews', { type: 'text', content: 'please review me', meta: { commentId: 'c-42' } });
		await waitFor('the queue item to be pending', async () => {
			const res = await fetch(`${ctx.mock.url}/queues/e2e-reviews/items/${item.id}`, {
				headers: { authorization: `Bearer ${ctx.mock.token}` },
			});
			const body = (await res.json()) as { status?: string };
			return body.status === 'pending' ? true : undefined;
		}, 30_000, 100);
		await mockPost(ctx, `/__mock/queues/e2e-reviews/items/${item.id}/decision`, { decision: 'accepted' });

		const expected = [
			['moderation.completed', image.id],
			['moderation.completed', text.id],
			['queue.review.completed', item.id],
		];
		await waitFor('3 finished executions', async () => {
			const rows = await finishedExecutions(ctx.db, COMPLETIONS_V3.id);
			return rows.length - before >= 3 ? true : undefined;
		}, 60_000, 300);
		// A queue-mode webhook processor can take tens of seconds per answer right after a burst of earlier cases.
		await ctx.mock.whenIdle(90_000);
		await sleep(1500); // a second execution of one completion would show up here
		const items = await startedItems(ctx, COMPLETIONS_V3.id, TRIGGER_NAME, before);
		assert(items.length === 3, `expected 3 executions, got ${items.length}: ${JSON.stringify(items.map((i) => [i.json?.event, i.json?.id]))}`);
		for (const [event, id] of expected) {
			const runs = items.filter((i) => i.json?.event === event && i.json?.id === id);
			assert(runs.length === 1, `${event} ${id}: ${runs.length} executions`);
			assert(runs[0].status === 'success', `${event} ${id}: execution ${runs[0].execution} ${runs[0].status}`);
		}
		const [imageRun, textRun, reviewRun] = expected.map(([event, id]) => items.find((i) => i.json.event === event && i.json.id === id)!.json);
		assert(typeof imageRun.isSafe === 'boolean' && imageRun.description, 'the image execution has no image result');
		assert(typeof textRun.filteredContent === 'string' && !textRun.filteredContent.includes('absolute'), 'the text execution has no masked text');
		assert(reviewRun.status === 'accepted' && reviewRun.accepted === true && reviewRun.content === 'please review me', 'the review decision is not in its execution');
		const attempts = ctx.mock.callbacks.filter((c) => expected.some(([, id]) => id === c.moderationId));
		assert(attempts.every((a) => a.status === 200), `callback answers ${attempts.map((a) => a.status)}`);
		return `image, text, review decision: 1 execution each (${attempts.length} deliveries, all 200); review decision via the account webhook = production URL + ?token=`;
	} finally {
		ctx.mock.configure({ webhookUrl: null });
	}
}

interface Attempt {
	completion: number;
	attempt: number;
	startedAt: number;
	ms: number;
	status?: number;
	body?: unknown;
	error?: string;
}

/** A webhook sender: each completion tried up to `attempts` times, an attempt given up after `timeoutMs`. */
async function retryingSend(url: string, bodies: unknown[], attempts = 3, timeoutMs = 5_000, pauseMs = 1_000) {
	const log: Attempt[] = [];
	const t0 = Date.now();
	await Promise.all(
		bodies.map(async (body, completion) => {
			for (let attempt = 1; attempt <= attempts; attempt++) {
				const startedAt = Date.now();
				const entry: Attempt = { completion, attempt, startedAt: startedAt - t0, ms: 0 };
				log.push(entry);
				try {
					const res = await fetch(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json', 'x-completion': String(completion), 'x-attempt': String(attempt) },
						body: JSON.stringify(body),
						signal: AbortSignal.timeout(timeoutMs),
					});
					entry.status = res.status;
					const text = await res.text();
					try {
						entry.body = JSON.parse(text);
					} catch {
						entry.body = text;
					}
				} catch (e) {
					entry.error = (e as Error).name;
				}
				entry.ms = Date.now() - startedAt;
				if (entry.status !== undefined && entry.status < 300) return;
				await sleep(pauseMs);
			}
		}),
	);
	return log;
}

function percentile(values: number[], p: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summarise(label: string, count: number, log: Attempt[], executions: number, distinct: number) {
	const first = log.filter((a) => a.attempt === 1);
	const inTime = first.filter((a) => a.status !== undefined && a.status < 300).length;
	const acknowledged = new Set(log.filter((a) => a.status !== undefined && a.status < 300).map((a) => a.completion)).size;
	const ok = log.filter((a) => a.status !== undefined && a.status < 300).map((a) => a.ms);
	const duplicatesAnswered = log.filter((a) => (a.body as { duplicate?: boolean } | undefined)?.duplicate === true).length;
	return {
		line: `${label}: first attempt acknowledged in time ${inTime}/${count}, acknowledged at all ${acknowledged}/${count}, attempts ${log.length}, answered duplicate ${duplicatesAnswered}, ack ms p50 ${percentile(ok, 50)} p95 ${percentile(ok, 95)} max ${percentile(ok, 100)}; executions ${executions} for ${distinct} distinct completions`,
		acknowledged,
	};
}

function imageCompletion(i: number, tag: string) {
	return {
		event: 'moderation.completed',
		data: {
			id: randomUUID(),
			isSafe: i % 3 !== 0,
			confidence: 90,
			description: `Mock image ${tag}-${i}`,
			summary: { totalFlags: i % 3 === 0 ? 1 : 0, contentRating: 'G', language: 'en', profanity: false },
			riskScores: { overall: 5 },
			topics: [],
			nsfwCategories: [],
			suggestedActions: { reject: i % 3 === 0, review: false },
			hash: `h-${tag}-${i}`,
			meta: { n: i },
		},
	};
}

/**
 * What n8n answered itself, before any node ran, as its log records it: a request whose sender had gone
 * while it waited ("Request body stream was aborted"), one refused while n8n took its database for down
 * (503 "Database is not ready!", logged without a path: only the sender runs while this is counted).
 */
function n8nRejections(ctx: E2eContext, fromByte: number, webhookPath: string) {
	const text = readFileSync(webhookLogFile(ctx)).subarray(fromByte).toString('utf-8');
	const lines = text.split('\n');
	const handlingErrors = lines.filter((l) => l.includes(`Error in handling webhook request POST /webhook/${webhookPath}`));
	const bodyAborted = handlingErrors.filter((l) => l.includes('Request body stream was aborted')).length;
	const dbNotReady = lines.filter((l) => l.includes('503 Database is not ready!')).length;
	return { bodyAborted, dbNotReady, otherErrors: handlingErrors.length - bodyAborted, total: handlingErrors.length + dbNotReady };
}

/** The log of the process that takes production webhooks: in queue mode the webhook processor, not main. */
function webhookLogFile(ctx: E2eContext): string {
	return (ctx.stack as Partial<QueueStack>).webhook?.logFile ?? ctx.stack.n8n.logFile;
}

function logSize(ctx: E2eContext): number {
	return statSync(webhookLogFile(ctx)).size;
}

/**
 * Waits until the workflow's executions are all finished and neither they nor n8n's own rejections
 * have changed for `quietMs`: n8n goes on handling requests whose sender gave up, and a request can
 * wait in n8n longer than the sender's 5 s (11 s measured under a 200 burst), so the window is longer.
 */
async function settled(ctx: E2eContext, workflowId: string, before: number, atLeast: number, quietMs = 4_000, watch?: () => number) {
	let last = '';
	let since = Date.now();
	return await waitFor(`executions of ${workflowId} to settle`, async () => {
		const all = await ctx.db.executions(workflowId);
		const finished = all.filter((r) => !['new', 'running', 'waiting'].includes(r.status)).length;
		const state = `${all.length}/${finished}/${watch?.() ?? ''}`;
		if (state !== last) {
			last = state;
			since = Date.now();
		}
		return all.length - before >= atLeast && finished === all.length && Date.now() - since >= quietMs ? all.slice(before) : undefined;
	}, 300_000, 500);
}

/** How long n8n's executions and own rejections must stay unchanged after a burst: see `settled`. */
const BURST_QUIET_MS = 15_000;

function webhookPathOf(url: string): string {
	return new URL(url).pathname.replace(/^\/webhook\//, '');
}

/** Sends `bodies` with the retrying sender and waits until n8n has handled every request it got. */
async function burst(ctx: E2eContext, url: string, workflowId: string, bodies: unknown[]) {
	const before = (await ctx.db.executions(workflowId)).length;
	const logFrom = logSize(ctx);
	const log = await retryingSend(url, bodies);
	if (process.env.E2E_TRACE_DIR) writeFileSync(join(process.env.E2E_TRACE_DIR, `sender-${workflowId}.json`), JSON.stringify({ bodies, log }));
	const path = webhookPathOf(url);
	const rows = await settled(ctx, workflowId, before, 1, BURST_QUIET_MS, () => n8nRejections(ctx, logFrom, path).total);
	return { log, rows, before, rejected: n8nRejections(ctx, logFrom, path) };
}

/**
 * Cases 43/44: `count` completions at once from a retrying sender, first to the v3 trigger, then (once
 * n8n is idle again) the same kind of completions to n8n's Webhook node. The trigger must start exactly
 * one execution per completion n8n let reach it: none doubled, every acknowledged completion started, and
 * a completion that started nothing only when all its attempts can be n8n's own rejections before the
 * trigger ran (its log: the sender gone while the request waited, or its database taken for down).
 * Those are reported as n8n's, beside the Webhook node's figures in the same n8n.
 */
export async function retryingSender(ctx: E2eContext, count: number): Promise<string> {
	const lines: string[] = [];
	const ours = Array.from({ length: count }, (_, i) => imageCompletion(i, 'ours'));
	const mine = await burst(ctx, v3Url(ctx), COMPLETIONS_V3.id, ours);
	const oursItems = await startedItems(ctx, COMPLETIONS_V3.id, TRIGGER_NAME, mine.before);
	const perId = new Map<string, number>();
	for (const item of oursItems) perId.set(item.json?.id, (perId.get(item.json?.id) ?? 0) + 1);
	const lost = ours.map((b, completion) => ({ id: b.data.id, completion })).filter(({ id }) => !perId.has(id));
	const lostAttempts = mine.log.filter((a) => lost.some((l) => l.completion === a.completion));
	const rejection = (r: ReturnType<typeof n8nRejections>) =>
		`n8n rejected ${r.total} attempts before the node ran (sender gone while waiting ${r.bodyAborted}, database taken for down ${r.dbNotReady}, other ${r.otherErrors})`;
	lines.push(`${summarise('Content Moderation Trigger v3', count, mine.log, mine.rows.length, perId.size).line}; lost ${lost.length} (${lostAttempts.length} attempts); ${rejection(mine.rejected)}`);

	// n8n's own Webhook node, same n8n, after ours settled.
	const theirs = Array.from({ length: count }, (_, i) => imageCompletion(i, 'webhook'));
	const other = await burst(ctx, webhookNodeUrl(ctx), COMPLETIONS_WEBHOOK.id, theirs);
	const theirsItems = await startedItems(ctx, COMPLETIONS_WEBHOOK.id, 'Done', other.before);
	const theirIds = new Set(theirsItems.map((i) => i.json?.completionId));
	lines.push(`${summarise("n8n's Webhook node", count, other.log, other.rows.length, theirIds.size).line}; lost ${count - theirIds.size}; ${rejection(other.rejected)}`);
	ctx.log(lines.join('\n'));

	const doubled = [...perId.entries()].filter(([, n]) => n > 1);
	assert(doubled.length === 0, `${doubled.length} completions started more than once (${lines[0]})`);
	const failed = mine.rows.filter((r) => r.status !== 'success');
	assert(failed.length === 0, `${failed.length} trigger executions not successful`);
	assert(mine.rows.length === perId.size, `executions ${mine.rows.length} != distinct completions ${perId.size}`);
	// An acknowledged completion was handed to the trigger: it must have started.
	const acknowledgedLost = lost.filter(({ completion }) => mine.log.some((a) => a.completion === completion && a.status !== undefined && a.status < 300));
	assert(acknowledgedLost.length === 0, `${acknowledgedLost.length} acknowledged completions started no execution (${lines[0]})`);
	// Started nothing and never acknowledged: only n8n's own rejections may explain every attempt of it.
	assert(
		lostAttempts.length <= mine.rejected.total,
		`${lost.length} completions lost with ${lostAttempts.length} attempts, more than the ${mine.rejected.total} n8n rejected itself: some reached the trigger and started nothing (${lines[0]})`,
	);
	return lines.join(' | ');
}

/**
 * Case 45: one callback at a time, `count` each, to n8n's Webhook node, the v3 trigger without a credential
 * (parse, duplicate check, redaction) and the v3 trigger with its credential (+ credential read and secret
 * check): acknowledgement times when nothing queues, i.e. what n8n does per call and what the trigger adds.
 * Every call must start one execution; a repeated one (the last, sent again) must start none.
 */
export async function sequentialAcks(ctx: E2eContext, count = 30): Promise<string> {
	const targets: Array<[string, string, string]> = [
		["n8n's Webhook node", webhookNodeUrl(ctx), COMPLETIONS_WEBHOOK.id],
		['trigger v3, no credential', callbackUrl(ctx, 'unused', COMPLETIONS_V3_PLAIN).replace(/\?.*$/, ''), COMPLETIONS_V3_PLAIN.id],
		['trigger v3, credential + secret', v3Url(ctx), COMPLETIONS_V3.id],
	];
	const lines: string[] = [];
	for (const [label, url, workflowId] of targets) {
		const before = (await ctx.db.executions(workflowId)).length;
		const ms: number[] = [];
		let last: unknown;
		for (let i = 0; i < count; i++) {
			last = imageCompletion(i, 'seq');
			const t = performance.now();
			const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(last) });
			await res.text();
			assert(res.status === 200, `${label}: answered ${res.status}`);
			ms.push(performance.now() - t);
		}
		const again = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(last) });
		const againBody = await again.text();
		const rows = await settled(ctx, workflowId, before, count, 2_000);
		const expected = workflowId === COMPLETIONS_WEBHOOK.id ? count + 1 : count;
		assert(rows.length === expected, `${label}: ${rows.length} executions for ${count} calls and one repeat`);
		if (workflowId !== COMPLETIONS_WEBHOOK.id) assert(/"duplicate":true/.test(againBody), `${label}: the repeat answered ${againBody}`);
		lines.push(`${label}: ack ms p50 ${percentile(ms, 50).toFixed(0)} p95 ${percentile(ms, 95).toFixed(0)} max ${percentile(ms, 100).toFixed(0)}`);
	}
	return lines.join(' | ');
}
