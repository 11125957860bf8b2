/** Case 7: the other example workflows run as their sticky notes say (so the examples cannot rot). */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { QueueStack } from '../../../dev/n8n/queue';
import { EXAMPLES_DIR, readWorkflow } from '../../../dev/n8n/stack';
import { executeWorkflow } from '../../../dev/n8n/summary';
import { waitFor } from '../../../dev/wait';
import { assert, E2eContext, finishedExecutions } from '../context';
import { callbackUrl } from './deferred';

const LOOP_A = readWorkflow(join(EXAMPLES_DIR, '08-review-loop-moderate.json'));
const LOOP_B = readWorkflow(join(EXAMPLES_DIR, '08b-review-loop-decision.json'));
const REVIEW_QUEUE = 'comment-reviews';
const AT_VOLUME = readWorkflow(join(EXAMPLES_DIR, '09-callbacks-at-volume.json'));

/** What a person does in the dashboard; the mock's decision endpoint stands in for them. */
async function decide(ctx: E2eContext, itemId: string, decision: 'accepted' | 'rejected'): Promise<void> {
	const headers = { authorization: `Bearer ${ctx.mock.token}`, 'content-type': 'application/json' };
	await waitFor(`queue item ${itemId} to be pending`, async () => {
		const res = await fetch(`${ctx.mock.url}/queues/${REVIEW_QUEUE}/items/${itemId}`, { headers });
		return ((await res.json()) as { status?: string }).status === 'pending' ? true : undefined;
	}, 30_000, 100);
	const res = await fetch(`${ctx.mock.url}/__mock/queues/${REVIEW_QUEUE}/items/${itemId}/decision`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ decision }),
	});
	assert(res.status === 200, `the mock's decision endpoint answered ${res.status}`);
}

/**
 * Examples 08 and 08b, the human review loop: A moderates four comments (POST /text each), publishes the
 * safe one, removes the flagged one and sends the two doubtful ones to the review queue; a reviewer accepts
 * one and rejects the other; each decision reaches B's published trigger through the account webhook URL
 * (the mock's `webhookUrl`, set to the trigger's production URL with the Callback Secret) and B publishes or
 * removes that comment, matched by the queue item id A kept.
 */
async function reviewLoop(ctx: E2eContext): Promise<string> {
	ctx.mock.configure({ webhookUrl: callbackUrl(ctx, ctx.stack.callbackSecret, LOOP_B) });
	try {
		const since = ctx.mock.requests.length;
		const a = await executeWorkflow(ctx.stack, ctx.db, LOOP_A.id);
		assert(a.status === 'success', `example 08 execution #${a.executionId} status ${a.status}`);
		const [now, removed, pending] = ['Publish Now', 'Remove Now', 'Pending Review'].map((node) => a.items[node] ?? []);
		assert(now.length === 1 && removed.length === 1 && pending.length === 2, `example 08: published ${now.length}, removed ${removed.length}, pending ${JSON.stringify(pending)}`);
		assert(pending.every((p: any) => typeof p.reviewItemId === 'string' && p.queueId === REVIEW_QUEUE && /casino/.test(p.comment)), `example 08 pending ${JSON.stringify(pending)}`);
		const sent = ctx.mock.requests.slice(since).map((r) => `${r.method} ${r.path}`);
		assert(sent.filter((c) => c === 'POST /text').length === 4, `example 08 sent ${JSON.stringify(sent)}`);
		assert(sent.filter((c) => c === `POST /queues/${REVIEW_QUEUE}`).length === 2, `example 08 sent ${JSON.stringify(sent)}`);

		const before = (await finishedExecutions(ctx.db, LOOP_B.id)).length;
		const [toAccept, toReject] = pending as any[];
		await decide(ctx, toAccept.reviewItemId, 'accepted');
		await decide(ctx, toReject.reviewItemId, 'rejected');
		await waitFor('2 finished executions of example 08b', async () => {
			const rows = await finishedExecutions(ctx.db, LOOP_B.id);
			return rows.length - before >= 2 ? rows.slice(before) : undefined;
		}, 60_000, 300);
		await ctx.mock.whenDelivered([toAccept.reviewItemId, toReject.reviewItemId], 30_000);
		const rows = (await finishedExecutions(ctx.db, LOOP_B.id)).slice(before);
		assert(rows.length === 2 && rows.every((r) => r.status === 'success'), `example 08b executions ${JSON.stringify(rows)}`);
		const outcomes: Record<string, any[]> = { publish: [], remove: [], pending: [] };
		for (const row of rows) {
			const detail = await ctx.db.execution(row.id);
			outcomes.publish.push(...(detail.items['Publish Comment'] ?? []));
			outcomes.remove.push(...(detail.items['Remove Comment'] ?? []));
			outcomes.pending.push(...(detail.items['Still Pending'] ?? []));
		}
		assert(
			outcomes.publish.length === 1 && outcomes.publish[0].reviewItemId === toAccept.reviewItemId && outcomes.publish[0].comment === toAccept.comment,
			`example 08b published ${JSON.stringify(outcomes.publish)} (expected ${toAccept.reviewItemId})`,
		);
		assert(
			outcomes.remove.length === 1 && outcomes.remove[0].reviewItemId === toReject.reviewItemId && outcomes.remove[0].comment === toReject.comment,
			`example 08b removed ${JSON.stringify(outcomes.remove)} (expected ${toReject.reviewItemId})`,
		);
		assert(outcomes.pending.length === 0, `example 08b left pending ${JSON.stringify(outcomes.pending)}`);
		const decisions = ctx.mock.callbacks.filter((c) => c.event === 'queue.review.completed' && c.ok);
		return `A #${a.executionId}: 1 published, 1 removed, 2 to review; B: accepted ${toAccept.reviewItemId.slice(0, 8)} published, rejected ${toReject.reviewItemId.slice(0, 8)} removed (${decisions.length} decision callbacks delivered)`;
	} finally {
		ctx.mock.configure({ webhookUrl: null });
	}
}

/**
 * Case 47, example 09, the path for bursts: a safe and a flagged completion POSTed to its published Webhook
 * with the Callback Secret reach Publish and Hold for Review; the safe one delivered again passes nothing on.
 * n8n's Webhook node keeps the request's query, the ?token= included, in the execution's data: counted and
 * reported (the package README says so), while Receive's own output must hold no form of it. Run after
 * case 9, whose search of n8n's records is about what this package's nodes keep.
 */
export async function atVolume(ctx: E2eContext): Promise<string> {
	const hook = AT_VOLUME.nodes.find((n: any) => n.type === 'n8n-nodes-base.webhook')!;
	const url = `${ctx.stack.webhookUrl}/webhook/${hook.parameters.path}?token=${encodeURIComponent(ctx.stack.callbackSecret)}`;
	// A full result, as the service sends it: Receive reads back only a result missing fields.
	const completion = (id: string, isSafe: boolean) => ({
		event: 'moderation.completed',
		data: {
			id,
			isSafe,
			confidence: 95,
			description: 'e2e 09',
			summary: { totalFlags: isSafe ? 0 : 1, contentRating: isSafe ? 'G' : 'R', language: 'en', profanity: false },
			riskScores: { overall: isSafe ? 3 : 88 },
			topics: [],
			nsfwCategories: [],
			suggestedActions: { reject: !isSafe, review: false },
			hash: `e2e-09-${id}`,
		},
	});
	const safe = completion(randomUUID(), true);
	const before = (await finishedExecutions(ctx.db, AT_VOLUME.id)).length;
	const bodies = [safe, completion(randomUUID(), false), safe];
	for (const [i, body] of bodies.entries()) {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		assert(res.status === 200, `example 09's Webhook answered ${res.status}`);
		// One after another: the repeat must come after the first was passed on.
		await waitFor(`example 09 execution ${i + 1}`, async () => {
			const rows = await finishedExecutions(ctx.db, AT_VOLUME.id);
			return rows.length >= before + i + 1 ? rows : undefined;
		}, 30_000, 200);
	}
	const rows = await waitFor('3 executions of example 09', async () => {
		const all = (await finishedExecutions(ctx.db, AT_VOLUME.id)).slice(before);
		return all.length >= 3 ? all : undefined;
	}, 60_000, 300);
	const runs = await Promise.all(rows.map(async (r) => await ctx.db.execution(r.id)));
	assert(runs.every((r) => r.status === 'success'), `example 09 executions ${runs.map((r) => r.status)}`);
	const count = (node: string) => runs.flatMap((r) => r.items[node] ?? []);
	const [published, held, received] = ['Publish', 'Hold for Review', 'Receive Callback'].map(count);
	assert(published.length === received.length - 1 && published.every((p) => p.moderationId === safe.data.id), `example 09 published ${JSON.stringify(published)}`);
	assert(held.length === 1 && held[0].overallRisk === 88, `example 09 held ${JSON.stringify(held)}`);
	// Each queue-mode worker has its own memory: with several, the repeat may run where the first did not.
	const workers = (ctx.stack as Partial<QueueStack>).workers?.length ?? 1;
	if (workers === 1) assert(received.length === 2, `example 09: Receive passed on ${received.length} items for 2 completions (one delivered twice)`);
	else assert(received.length <= 3, `example 09: Receive passed on ${received.length} items`);
	const secret = ctx.stack.callbackSecret;
	const holds = (items: unknown[]) => items.filter((item) => JSON.stringify(item).includes(secret)).length;
	assert(holds([...received, ...published, ...held]) === 0, 'example 09: an item after the Webhook node holds the Callback Secret');
	const kept = holds(count('Callback Webhook'));
	return `09: 1 published, 1 held, Receive passed on ${received.length} items for 2 completions, one delivered twice (${workers} worker${workers === 1 ? '' : 's'}); the secret in none of Receive's items, in ${kept} of n8n's Webhook node items (its query)`;
}

export async function examplesRun(ctx: E2eContext): Promise<string> {
	const url = await executeWorkflow(ctx.stack, ctx.db, 'cmExample01Url00');
	assert(url.status === 'success', `example 01 execution #${url.executionId} status ${url.status}`);
	const published = url.items['Publish'] ?? [];
	const held = url.items['Hold for Review'] ?? [];
	assert(published.length === 2 && held.length === 1, `example 01: ${published.length} published, ${held.length} held (expected 2 and 1)`);
	assert(/violence-gore/.test(held[0].imageUrl) && typeof held[0].overallRisk === 'number', `example 01 held: ${JSON.stringify(held[0])}`);
	assert(/violence_gore/.test(held[0].categories), `example 01 held item lacks its categories: ${JSON.stringify(held[0])}`);

	const bin = await executeWorkflow(ctx.stack, ctx.db, 'cmExample02Bin00');
	assert(bin.status === 'success', `example 02 execution #${bin.executionId} status ${bin.status}`);
	const accepted = bin.items['Accept Upload'] ?? [];
	const rejected = bin.items['Reject Upload'] ?? [];
	assert(
		accepted.length === 1 && accepted[0].fileName === 'holiday-photo.png' && rejected.length === 1 && rejected[0].fileName === 'flyer.png',
		`example 02: accepted ${JSON.stringify(accepted)}, rejected ${JSON.stringify(rejected)}`,
	);

	// Example 04: a review queue item reads `pending` once moderated (a person has not decided yet).
	const queue = await executeWorkflow(ctx.stack, ctx.db, 'cmExample04Queue');
	assert(queue.status === 'success', `example 04 execution #${queue.executionId} status ${queue.status}`);
	const [added] = queue.items['Add to Queue'] ?? [];
	const [read] = queue.items['Read Queue Item'] ?? [];
	const [processed] = queue.items['Processed Item'] ?? [];
	assert(
		added?.id && read?.id === added.id && read.type === 'text' && read.status === 'pending' && typeof read.moderation?.isSafe === 'boolean',
		`example 04: added ${JSON.stringify(added)}, read ${JSON.stringify(read).slice(0, 300)}`,
	);
	assert(
		processed?.itemId === added.id && processed.isSafe === read.moderation.isSafe && (queue.items['Not Processed Yet'] ?? []).length === 0,
		`example 04 did not reach Processed Item: ${JSON.stringify(processed)}`,
	);
	const readings = [`${String(added.id).slice(0, 8)} read back ${read.status}, isSafe ${String(processed.isSafe)}`];

	const loop = await reviewLoop(ctx);
	return `01: ${published.length} published/${held.length} held; 02: ${accepted.length} accepted/${rejected.length} rejected; 04: ${readings.join('; ')}; 08: ${loop}`;
}
