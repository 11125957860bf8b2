/**
 * Cases 17 and 18: Text > Moderate (via Queue) in real n8n, through the two examples, under both readings
 * of a processed queue item (the full result in `moderation`, or only its id with a status still `pending`).
 * Checked in n8n's records and against what the mock service received.
 */
import { join } from 'node:path';
import { PROFANE_TEXT, PROFANE_TEXT_FILTERED, SAFE_TEXT } from '../../../dev/mock/fixtures';
import type { MockServiceOptions } from '../../../dev/mock/options';
import { EXAMPLES_DIR, readWorkflow } from '../../../dev/n8n/stack';
import { executeWorkflow } from '../../../dev/n8n/summary';
import { assert, E2eContext, finishedExecutions } from '../context';

export const GUARDRAIL = readWorkflow(join(EXAMPLES_DIR, '06-text-guardrail.json'));
export const COMMENTS = readWorkflow(join(EXAMPLES_DIR, '07-comments-webhook.json'));
const COMMENTS_PATH = COMMENTS.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!.parameters.path as string;

/** Both readings of spec 2.4: what the mock does by default, and only an id in a still-pending item. */
export const READINGS: Array<{ label: string; options: MockServiceOptions }> = [
	{ label: 'full moderation', options: { queueModeration: 'full', processedStatus: 'completed' } },
	{ label: 'id-only moderation, status pending', options: { queueModeration: 'id', processedStatus: 'pending' } },
];

/** Runs `body` under each reading and puts the mock back afterwards. */
async function underEachReading(ctx: E2eContext, body: (label: string, idOnly: boolean) => Promise<string>): Promise<string> {
	const parts: string[] = [];
	for (const { label, options } of READINGS) {
		ctx.mock.configure(options);
		try {
			parts.push(`${label}: ${await body(label, options.queueModeration === 'id')}`);
		} finally {
			ctx.mock.configure({ queueModeration: 'full', processedStatus: 'completed' });
		}
	}
	return parts.join('; ');
}

/** Requests the mock answered since `since` (an index into its records), as "METHOD path" with ids folded. */
function calls(ctx: E2eContext, since: number): string[] {
	return ctx.mock.requests.slice(since).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, '{id}')}`);
}

/** Case 17: example 06, the chat guardrail: safe goes on, flagged is refused, review goes to a person's queue. */
export async function textGuardrail(ctx: E2eContext): Promise<string> {
	return await underEachReading(ctx, async (label, idOnly) => {
		const since = ctx.mock.requests.length;
		const run = await executeWorkflow(ctx.stack, ctx.db, GUARDRAIL.id);
		assert(run.status === 'success', `${label}: execution #${run.executionId} status ${run.status}`);
		const [safe, refused, queued] = ['Pass to AI Agent', 'Refuse', 'Queue for a Person'].map((node) => run.items[node] ?? []);
		assert(safe.length === 1 && safe[0].sessionId === 'session-1' && /picnic/.test(safe[0].chatInput), `${label}: Pass to AI Agent got ${JSON.stringify(safe)}`);
		assert(refused.length === 1 && refused[0].sessionId === 'session-2' && /^Sorry/.test(refused[0].output), `${label}: Refuse got ${JSON.stringify(refused)}`);
		assert(/isSafe is false/.test(refused[0].reasons), `${label}: refusal reasons ${refused[0].reasons}`);
		assert(queued.length === 1 && queued[0].queueId === 'chat-human-review' && queued[0].status === 'processing', `${label}: Queue for a Person got ${JSON.stringify(queued)}`);

		const seen = calls(ctx, since);
		const posts = seen.filter((c) => c === 'POST /queues/chat-guardrail');
		assert(posts.length === 3, `${label}: ${posts.length} POST /queues/chat-guardrail, expected 3 (one per message)`);
		const reads = seen.filter((c) => c === 'GET /queues/chat-guardrail/items/{id}').length;
		const texts = seen.filter((c) => c === 'GET /text/{id}').length;
		assert(texts === (idOnly ? 3 : 0), `${label}: ${texts} GET /text/{id}, expected ${idOnly ? 3 : 0}`);
		return `#${run.executionId} safe/flagged/review 1/1/1, ${(reads / 3).toFixed(1)} item reads per message, ${texts} GET /text`;
	});
}

export async function postComment(ctx: E2eContext, comment: object): Promise<{ status: number; body: any }> {
	const response = await fetch(`${ctx.stack.webhookUrl}/webhook/${COMMENTS_PATH}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(comment),
	});
	const text = await response.text();
	let body: any = text;
	try {
		body = JSON.parse(text);
	} catch {
		// a text answer stays as it is
	}
	return { status: response.status, body };
}

/** Case 18: example 07, comments by webhook: each answered with the stored comment, which holds filteredContent. */
export async function commentsByWebhook(ctx: E2eContext): Promise<string> {
	return await underEachReading(ctx, async (label) => {
		const before = (await finishedExecutions(ctx.db, COMMENTS.id)).length;
		const since = ctx.mock.requests.length;
		const clean = await postComment(ctx, { postId: 'p-1', author: 'user-7', comment: SAFE_TEXT });
		const profane = await postComment(ctx, { postId: 'p-1', author: 'user-8', comment: PROFANE_TEXT });
		assert(clean.status === 200 && profane.status === 200, `${label}: webhook answered ${clean.status} / ${profane.status}: ${JSON.stringify(profane.body).slice(0, 300)}`);
		assert(
			clean.body.text === SAFE_TEXT && clean.body.visible === true && clean.body.author === 'user-7',
			`${label}: stored clean comment ${JSON.stringify(clean.body)}`,
		);
		assert(
			profane.body.text === PROFANE_TEXT_FILTERED && profane.body.visible === false && profane.body.postId === 'p-1',
			`${label}: stored profane comment ${JSON.stringify(profane.body)} (expected the masked text)`,
		);
		assert(typeof profane.body.queueItemId === 'string' && profane.body.queueItemId !== profane.body.textModerationId, `${label}: ids ${JSON.stringify(profane.body)}`);
		const sent = ctx.mock.requests.slice(since).filter((r) => r.method === 'POST');
		assert(
			sent.length === 2 && sent.every((r) => r.path === '/queues/comments' && (r.body as any).meta === 'p-1'),
			`${label}: the service got ${sent.length} POSTs: ${JSON.stringify(sent.map((r) => [r.path, r.body]))}`,
		);
		const runs = (await finishedExecutions(ctx.db, COMMENTS.id)).slice(before);
		assert(runs.length === 2 && runs.every((r) => r.status === 'success'), `${label}: executions ${JSON.stringify(runs)}`);
		return `stored "${profane.body.text}" for "${PROFANE_TEXT}"`;
	});
}
