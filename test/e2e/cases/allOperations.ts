/**
 * Case 1: every operation of the action node (image moderate in every input type and mode, image get,
 * queue add/get, text get/delete) in one workflow run started through n8n's REST API, checked in n8n's records
 * and against what the mock service received.
 */
import { createHash } from 'node:crypto';
import { executeWorkflow } from '../../../dev/n8n/summary';
import * as fx from '../../../dev/mock/fixtures';
import { assert, E2eContext } from '../context';

export const ALL_OPS_WORKFLOW = 'cmE2eAllOps00001';

const sha256 = (v: string | Buffer) => createHash('sha256').update(v).digest('hex');

export async function allOperations(ctx: E2eContext): Promise<string> {
	const since = ctx.mock.requests.length;
	const run = await executeWorkflow(ctx.stack, ctx.db, ALL_OPS_WORKFLOW);
	assert(run.status === 'success', `execution #${run.executionId} status ${run.status}`);
	const one = (node: string) => {
		const items = run.items[node] ?? [];
		assert(items.length === 1, `${node} produced ${items.length} items, expected 1`);
		return items[0];
	};
	const url = one('Moderate URL');
	assert(url.isSafe === true && url.hash === sha256(fx.SAFE_IMAGE_URL), `Moderate URL: ${JSON.stringify(url).slice(0, 200)}`);
	const b64 = one('Moderate Base64');
	assert(b64.suggestedActions?.review === true, `Moderate Base64 should suggest review: ${JSON.stringify(b64).slice(0, 200)}`);
	assert(b64.hash === sha256(Buffer.from(fx.REVIEW_IMAGE_BASE64, 'base64')), 'Moderate Base64 hash is not the image hash');
	const bin = one('Moderate Binary');
	assert(bin.isSafe === false && bin.hash === sha256(Buffer.from(fx.UNSAFE_IMAGE_BASE64, 'base64')), `Moderate Binary: ${JSON.stringify(bin).slice(0, 200)}`);
	const deferred = one('Moderate Deferred');
	assert(typeof deferred.id === 'string' && deferred.isSafe === undefined, `Moderate Deferred should return only an id: ${JSON.stringify(deferred)}`);
	const waited = one('Moderate and Wait');
	assert(waited.isSafe === false && waited.hash === sha256(fx.UNSAFE_IMAGE_URL), `Moderate and Wait: ${JSON.stringify(waited).slice(0, 200)}`);
	const got = one('Get Image');
	assert(got.hash === sha256(fx.REVIEW_IMAGE_URL) && typeof got.isSafe === 'boolean', `Get Image: ${JSON.stringify(got).slice(0, 200)}`);
	const addText = one('Add Text to Queue');
	const addImage = one('Add Image to Queue');
	assert(addText.status === 'processing' && addText.id, `Add Text to Queue: ${JSON.stringify(addText)}`);
	assert(addImage.status === 'processing' && addImage.id && addImage.id !== addText.id, `Add Image to Queue: ${JSON.stringify(addImage)}`);
	const item = one('Get Queue Item');
	assert(item.id === addText.id && item.type === 'text' && item.moderation?.id, `Get Queue Item: ${JSON.stringify(item).slice(0, 300)}`);
	const text = one('Get Text');
	assert(text.id === item.moderation.id && text.content === fx.PROFANE_TEXT, `Get Text: ${JSON.stringify(text).slice(0, 300)}`);
	assert(text.filteredContent === fx.PROFANE_TEXT_FILTERED, `Get Text filteredContent: ${text.filteredContent}`);
	one('Delete Text');

	// What the service saw: the right calls, each with the bearer token from the imported credential.
	const seen = ctx.mock.requests.slice(since);
	const calls = seen.map((r) => `${r.method} ${r.path.replace(/\/[0-9a-f-]{8,}/gi, '/{id}')}`);
	for (const expected of ['POST /image', 'GET /image/{id}', 'POST /queues/e2e-queue', 'GET /queues/e2e-queue/items/{id}', 'GET /text/{id}', 'DELETE /text/{id}']) {
		assert(calls.includes(expected), `the service never received ${expected} (saw ${[...new Set(calls)].join(', ')})`);
	}
	const unauth = seen.filter((r) => r.headers.authorization !== `Bearer ${ctx.mock.token}`);
	assert(unauth.length === 0, `${unauth.length} requests without the credential's bearer token`);
	const del = seen.find((r) => r.method === 'DELETE');
	assert(del?.status && del.status < 300 && del.path.endsWith(text.id), `DELETE /text answered ${del?.status}`);
	return `execution #${run.executionId} success, ${Object.keys(run.items).length} nodes ran, ${seen.length} service calls, all with the bearer token`;
}
