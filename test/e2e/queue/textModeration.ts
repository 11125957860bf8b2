/**
 * Case 30: Text > Moderate (POST /text) in queue mode. The guardrail example started from main runs on one
 * worker, one POST /text per message; a comment posted to the webhook processor is enqueued there,
 * moderated on a worker, and the webhook answers with the cleaned text. Nothing is kept between processes.
 */
import { PROFANE_TEXT, PROFANE_TEXT_FILTERED } from '../../../dev/mock/fixtures';
import { COMMENTS, GUARDRAIL, postComment } from '../cases/textModeration';
import { assert, finishedExecutions } from '../context';
import { enqueuedBy, QueueContext, ranOnOneWorker } from './cases';

export async function textModerationOnWorkers(ctx: QueueContext): Promise<string> {
	const since = ctx.mock.requests.length;
	const id = await ctx.stack.run(GUARDRAIL.id, 180_000);
	const detail = await ctx.db.execution(id);
	assert(detail.status === 'success', `guardrail execution #${id} status ${detail.status}`);
	const routed = ['Pass to AI Agent', 'Refuse', 'Queue for a Person'].map((node) => (detail.items[node] ?? []).length);
	assert(routed.join() === '1,1,1', `guardrail routed safe/flagged/review ${routed.join('/')}, expected 1/1/1`);
	const texts = ctx.mock.requests.slice(since).filter((r) => r.method === 'POST' && r.path === '/text').length;
	assert(texts === 3, `${texts} POST /text for 3 messages`);
	const guardWorker = await ranOnOneWorker(ctx, id, 'guardrail execution');

	const before = (await finishedExecutions(ctx.db, COMMENTS.id)).map((r) => Number(r.id));
	const answer = await postComment(ctx, { postId: 'q-1', author: 'queue-user', comment: PROFANE_TEXT });
	assert(answer.status === 200 && answer.body.text === PROFANE_TEXT_FILTERED, `webhook processor answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
	const [comment] = (await finishedExecutions(ctx.db, COMMENTS.id)).map((r) => Number(r.id)).filter((n) => !before.includes(n));
	assert(comment !== undefined && enqueuedBy(ctx.stack.webhook).has(comment), `comment execution ${comment} not enqueued by the webhook processor`);
	const commentWorker = await ranOnOneWorker(ctx, comment, 'comment execution');
	return `guardrail #${id} on ${guardWorker} (1/1/1, ${texts} POST /text); comment #${comment} enqueued by the webhook processor, run on ${commentWorker}, answered "${answer.body.text}"`;
}
