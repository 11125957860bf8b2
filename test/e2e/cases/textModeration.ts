/**
 * Cases 17 and 18: Text > Moderate (POST /text) in real n8n, through the two examples:
 * one POST /text per text and no queue request besides the review output's own Queue > Add Item.
 * Checked in n8n's records and against what the mock service received.
 */
import { join } from 'node:path';
import { PROFANE_TEXT, PROFANE_TEXT_FILTERED, SAFE_TEXT } from '../../../dev/mock/fixtures';
import { EXAMPLES_DIR, readWorkflow } from '../../../dev/n8n/stack';
import { executeWorkflow } from '../../../dev/n8n/summary';
import { assert, E2eContext, finishedExecutions } from '../context';

export const GUARDRAIL = readWorkflow(join(EXAMPLES_DIR, '06-text-guardrail.json'));
export const COMMENTS = readWorkflow(join(EXAMPLES_DIR, '07-comments-webhook.json'));
const COMMENTS_PATH = COMMENTS.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!.parameters.path as string;

/** Requests the mock answered since `since` (an index into its records), as "METHOD path" with ids folded. */
function calls(ctx: E2eContext, since: number): string[] {
	return ctx.mock.requests.slice(since).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, '{id}')}`);
}

/** Case 17: example 06, the chat guardrail: safe goes on, flagged is refused, review goes to a person's queue. */
export async function textGuardrail(ctx: E2eContext): Promise<string> {
	const since = ctx.mock.requests.length;
	const run = await executeWorkflow(ctx.stack, ctx.db, GUARDRAIL.id);
	assert(run.status === 'success', `execution #${run.executionId} status ${run.status}`);
	const [safe, refused, queued] = ['Pass to AI Agent', 'Refuse', 'Queue for a Person'].map((node) => run.items[node] ?? []);
	assert(safe.length === 1 && safe[0].sessionId === 'session-1' && /picnic/.test(safe[0].chatInput), `Pass to AI Agent got ${JSON.stringify(safe)}`);
	assert(refused.length === 1 && refused[0].sessionId === 'session-2' && /^Sorry/.test(refused[0].output), `Refuse got ${JSON.stringify(refused)}`);
	assert(/isSafe is false/.test(refused[0].reasons), `refusal reasons ${refused[0].reasons}`);
	assert(queued.length === 1 && queued[0].queueId === 'chat-human-review' && queued[0].status === 'processing', `Queue for a Person got ${JSON.stringify(queued)}`);

	const seen = calls(ctx, since);
	const texts = seen.filter((c) => c === 'POST /text');
	assert(texts.length === 3, `${texts.length} POST /text, expected 3 (one per message): ${JSON.stringify(seen)}`);
	const queueCalls = seen.filter((c) => c.includes('/queues/'));
	assert(
		queueCalls.length === 1 && queueCalls[0] === 'POST /queues/chat-human-review',
		`queue requests besides the review's one: ${JSON.stringify(queueCalls)}`,
	);
	const review = ctx.mock.requests.slice(since).find((r) => r.path === '/queues/chat-human-review');
	const meta = (review?.body as any)?.meta;
	assert(meta?.sessionId === 'session-3' && (review?.body as any)?.metadata?.sessionId === 'session-3', `review item metadata ${JSON.stringify(review?.body)}`);
	return `#${run.executionId} safe/flagged/review 1/1/1, ${texts.length} POST /text, 1 review queue item`;
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
	const before = (await finishedExecutions(ctx.db, COMMENTS.id)).length;
	const since = ctx.mock.requests.length;
	const clean = await postComment(ctx, { postId: 'p-1', author: 'user-7', comment: SAFE_TEXT });
	const profane = await postComment(ctx, { postId: 'p-1', author: 'user-8', comment: PROFANE_TEXT });
	assert(clean.status === 200 && profane.status === 200, `webhook answered ${clean.status} / ${profane.status}: ${JSON.stringify(profane.body).slice(0, 300)}`);
	assert(
		clean.body.text === SAFE_TEXT && clean.body.visible === true && clean.body.author === 'user-7',
		`stored clean comment ${JSON.stringify(clean.body)}`,
	);
	assert(
		profane.body.text === PROFANE_TEXT_FILTERED && profane.body.visible === false && profane.body.postId === 'p-1',
		`stored profane comment ${JSON.stringify(profane.body)} (expected the masked text)`,
	);
	assert(typeof profane.body.textModerationId === 'string' && profane.body.textModerationId !== '', `ids ${JSON.stringify(profane.body)}`);
	const sent = ctx.mock.requests.slice(since);
	assert(
		sent.length === 2 && sent.every((r) => r.method === 'POST' && r.path === '/text' && (r.body as any).options?.meta?.postId === 'p-1'),
		`the service got: ${JSON.stringify(sent.map((r) => [r.method, r.path, r.body]))}`,
	);
	const runs = (await finishedExecutions(ctx.db, COMMENTS.id)).slice(before);
	assert(runs.length === 2 && runs.every((r) => r.status === 'success'), `executions ${JSON.stringify(runs)}`);
	return `stored "${profane.body.text}" for "${PROFANE_TEXT}", one POST /text each`;
}
