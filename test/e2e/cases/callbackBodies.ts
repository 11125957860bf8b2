/**
 * Case 48: a callback's JSON body under any content type reaches the nodes at their version. For a start
 * node above version 1, n8n reads and parses only JSON, text, form and XML bodies before the node runs
 * (`webhook-helpers.js` `parseRequestBody`); the trigger and Wait for Callback read the other bodies
 * themselves (docs/callbacks.md). Read from n8n's records:
 * - the trigger: one completion per content type (JSON, text, form, octet-stream, a vendor type, none)
 *   starts one execution with its id; non-JSON bytes as octet-stream are refused as "not JSON" (read, not empty);
 * - Wait for Callback: while the execution waits, a foreign moderation id sent as octet-stream and without a
 *   content type is refused 422 and a review decision is acknowledged as ignored (the body was read); the
 *   service's own callbacks, sent as octet-stream, then resume it once with every result.
 */
import { DEFAULT_OPTIONS } from '../../../dev/mock/options';
import { sleep, waitFor } from '../../../dev/wait';
import { assert, E2eContext } from '../context';
import { imageCompletion } from './burstSender';
import { COMPLETIONS_TRIGGER, triggerUrl } from './completions';
import { expectOneResume, expectRouted, startWaiting, untilSucceeded } from './waitForCallback';

const TRIGGER_NAME = 'Completion Received';
const CONTENT_TYPES = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'application/vnd.contentmod+json', null];

/** POSTs `text` as bytes with `contentType` (null: no content type at all; fetch adds one to a string). */
async function postAs(url: string, text: string, contentType: string | null): Promise<{ status: number; body: any }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: contentType === null ? {} : { 'content-type': contentType },
		body: new TextEncoder().encode(text),
		signal: AbortSignal.timeout(30_000),
	});
	const answer = await res.text();
	try {
		return { status: res.status, body: JSON.parse(answer) };
	} catch {
		return { status: res.status, body: answer };
	}
}

async function triggerBodies(ctx: E2eContext): Promise<string> {
	const url = triggerUrl(ctx);
	const before = (await ctx.db.executions(COMPLETIONS_TRIGGER.id)).length;
	const sent = CONTENT_TYPES.map((contentType, i) => ({ contentType, body: imageCompletion(i, 'content-type') }));
	for (const { contentType, body } of sent) {
		const answer = await postAs(url, JSON.stringify(body), contentType);
		assert(answer.status === 200 && answer.body?.id === body.data.id, `the trigger answered JSON sent as ${contentType ?? 'no content type'} with ${answer.status} ${JSON.stringify(answer.body)}`);
	}
	const notJson = await postAs(url, 'id=abc&isSafe=true', 'application/octet-stream');
	assert(notJson.status === 400 && /not JSON/.test(JSON.stringify(notJson.body)), `non-JSON bytes as octet-stream were answered ${notJson.status} ${JSON.stringify(notJson.body)}`);

	const rows = await waitFor('an execution per content type', async () => {
		const all = (await ctx.db.executions(COMPLETIONS_TRIGGER.id)).slice(before);
		return all.length >= sent.length && all.every((r) => !['new', 'running'].includes(r.status)) ? all : undefined;
	}, 60_000, 300);
	await sleep(1_000);
	const started = new Map<string, string[]>();
	for (const row of rows) {
		const [item] = (await ctx.db.execution(row.id)).items[TRIGGER_NAME] ?? [];
		started.set(item?.id, [...(started.get(item?.id) ?? []), row.status]);
	}
	for (const { contentType, body } of sent) {
		const runs = started.get(body.data.id) ?? [];
		assert(runs.length === 1 && runs[0] === 'success', `JSON sent as ${contentType ?? 'no content type'}: executions ${JSON.stringify(runs)}`);
	}
	assert(rows.length === sent.length, `${rows.length} executions for ${sent.length} completions`);
	return `trigger: ${sent.length} content types (${CONTENT_TYPES.map((t) => t ?? 'none').join(', ')}) one execution each, non-JSON octet-stream refused 400`;
}

async function waitingBodies(ctx: E2eContext): Promise<string> {
	// The results are held until the refused calls have been sent while the execution waits.
	ctx.mock.configure({ callbackRetries: 8, callbackBackoffMs: 500, callbackTimeoutMs: 30_000, callbackContentType: 'application/octet-stream' });
	ctx.mock.holdResults();
	try {
		const { executionId, ids, urls } = await startWaiting(ctx);
		const foreign = JSON.stringify({ event: 'moderation.completed', data: { id: ids[1] } });
		for (const contentType of ['application/octet-stream', null]) {
			const answer = await postAs(urls[0], foreign, contentType);
			assert(answer.status === 422, `a foreign id sent as ${contentType ?? 'no content type'} was answered ${answer.status} ${JSON.stringify(answer.body)} (expected 422: the body read)`);
		}
		const review = JSON.stringify({ event: 'queue.review.completed', data: { id: 'q-48', status: 'accepted' } });
		const refused = await postAs(urls[0], review, 'application/vnd.contentmod+json');
		const message = (refused.body as { error?: { message?: string } } | undefined)?.error?.message;
		assert(refused.status === 422 && message === 'This URL takes only moderation.completed callbacks', `a review decision as a vendor type was answered ${refused.status} ${JSON.stringify(refused.body)}`);

		ctx.mock.releaseResults();
		await untilSucceeded(ctx, executionId, 90_000, 500);
		const routed = await expectRouted(ctx, executionId, ids);
		await expectOneResume(ctx, executionId);
		const attempts = ctx.mock.callbacks.filter((c) => ids.includes(c.moderationId));
		assert(attempts.some((c) => c.status === 200), `no octet-stream callback was accepted: ${attempts.map((c) => c.status ?? c.error).join(',')}`);
		return `Wait for Callback #${executionId}: foreign id as octet-stream and without a content type 422, a review decision refused 422, resumed once by octet-stream callbacks (${routed})`;
	} finally {
		ctx.mock.releaseResults();
		ctx.mock.configure({
			callbackRetries: DEFAULT_OPTIONS.callbackRetries,
			callbackBackoffMs: DEFAULT_OPTIONS.callbackBackoffMs,
			callbackTimeoutMs: DEFAULT_OPTIONS.callbackTimeoutMs,
			callbackContentType: DEFAULT_OPTIONS.callbackContentType,
		});
	}
}

export async function callbackBodies(ctx: E2eContext): Promise<string> {
	return `${await triggerBodies(ctx)}; ${await waitingBodies(ctx)}`;
}
