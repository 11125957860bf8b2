/** Callback > Receive through n8n-core's engine against the mock: the item n8n's Webhook node outputs, checked and completed. */
import type { IDataObject } from 'n8n-workflow';

import { call } from '@dev/mock/client';
import { mockImageUrl, SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { imageResult } from '@test/helpers/callbackBodies';
import { dumpRun, moderationNode, runWorkflow } from '@test/helpers/engine';
import { deferredImageId, NODE_NAME, nodeError, output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';

const mock = useMock();
const SECRET = 'cb-secret/5d1e88a0';

/** What n8n's Webhook node (version 2) outputs for a POST: headers, params, query, body. */
const webhookItem = (body: unknown, query: IDataObject = { token: SECRET }, headers: IDataObject = {}) => ({
	json: { headers: { 'content-type': 'application/json', ...headers }, params: {}, query, body, webhookUrl: 'http://n8n/webhook/x' } as IDataObject,
});

async function receive(items: Array<{ json: IDataObject }>, callbackSecret = SECRET) {
	return await runWorkflow({
		nodes: [moderationNode({ resource: 'callback', operation: 'receive' })],
		credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: SECRET_TOKEN, callbackSecret } },
		items,
	});
}

const requests = () => mock.service.requests.map((r) => `${r.method} ${r.path}`);

describe('Callback > Receive', () => {
	it('unwraps {event, data} and completes a result that came with only its id (one GET)', async () => {
		const id = await deferredImageId(mock, SAFE_IMAGE_URL);
		const run = await receive([webhookItem({ event: 'moderation.completed', data: { id } })]);
		expect(run.status).toBe('success');
		const json = output(run)[0].json;
		expect(json).toMatchObject({ id, event: 'moderation.completed', isSafe: true });
		expect(typeof json.hash).toBe('string');
		expect(output(run)[0].pairedItem).toEqual({ item: 0 });
		expect(requests()).toEqual([`GET /image/${id}`]);
		expect(mock.service.requests[0].headers.authorization).toBe(`Bearer ${SECRET_TOKEN}`);
		// Neither the secret nor the token is in the output (headers and query are not copied).
		expect(JSON.stringify(output(run))).not.toContain(SECRET);
		expect(JSON.stringify(output(run))).not.toContain(SECRET_TOKEN);
	});

	it('passes a flat result that carries all its fields on as it came, without a request', async () => {
		const result = imageResult('a7d3c9e2-0000-4000-8000-000000000001', { isSafe: false });
		const run = await receive([webhookItem(result, {}, { 'x-callback-token': SECRET })]);
		expect(run.status).toBe('success');
		expect(output(run)[0].json).toEqual({ ...result, event: 'moderation.completed' });
		expect(requests()).toEqual([]);
	});

	it('passes a review decision on without reading anything', async () => {
		const item = { id: 'b1c2d3e4-0000-4000-8000-000000000002', status: 'accepted', accepted: true, type: 'text', content: 'hi' };
		const run = await receive([webhookItem({ event: 'queue.review.completed', data: item })]);
		expect(output(run)[0].json).toEqual({ ...item, event: 'queue.review.completed' });
		expect(requests()).toEqual([]);
	});

	it('refuses a call without the Callback Secret with a clear error, reading nothing and leaking no secret', async () => {
		const wrong = 'not-the-secret-93c1';
		for (const query of [{ token: wrong }, {}]) {
			const run = await receive([webhookItem({ event: 'moderation.completed', data: { id: 'c0ffee00-0000-4000-8000-000000000003' } }, query)]);
			const error = nodeError(run);
			expect(error.message).toMatch(query.token ? /^Callback refused: Invalid callback token/ : /^Callback refused: Missing callback token/);
			expect(error.description).toContain('?token=<Callback Secret>');
			expect(error.context?.itemIndex).toBe(0);
			expect(dumpRun(run)).not.toContain(SECRET);
			expect(dumpRun(run)).not.toContain(SECRET_TOKEN);
		}
		expect(requests()).toEqual([]);
	});

	it('says what to connect when the item is not a Webhook node item', async () => {
		const run = await receive([{ json: { query: { token: SECRET } } }]);
		expect(nodeError(run).message).toBe('The input item has no body');
		expect(nodeError(run).description).toContain("n8n's Webhook node");
		const notJson = await receive([webhookItem('<xml/>', { token: SECRET }, { 'content-type': 'text/xml' })]);
		expect(nodeError(notJson).message).toBe('Not a moderation callback: Body is not JSON: expected the callback as JSON');
		// A JSON body that is a string is not read a second time.
		const jsonString = await receive([webhookItem(JSON.stringify({ id: 'a7d3c9e2', isSafe: true }))]);
		expect(nodeError(jsonString).message).toBe('Not a moderation callback: Body is a JSON string: expected the callback as a JSON object');
	});

	it('a result still processing fails its item (On Error routes it) and passes nothing on; delivered again once done, it passes the verdict on', async () => {
		const image = mockImageUrl({}, `receive-held-${Date.now()}`);
		const release = mock.service.holdResultsOf((subject) => subject === image);
		try {
			const submitted = await call(mock.service.url, 'POST', '/image', { token: SECRET_TOKEN, json: { image, options: { defer: true } } });
			const id = submitted.body.id as string;
			const published = async () =>
				await runWorkflow({
					nodes: [moderationNode({ resource: 'callback', operation: 'receive' }, { onError: 'continueErrorOutput' })],
					credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: SECRET_TOKEN, callbackSecret: SECRET } },
					items: [webhookItem({ event: 'moderation.completed', data: { id } })],
					mode: 'webhook',
				});

			const first = await published();
			expect(first.status).toBe('success');
			expect(first.outputOf(NODE_NAME, 0)).toEqual([]);
			const [failed] = first.outputOf(NODE_NAME, 1);
			expect(failed.json.error).toMatch(new RegExp(`not finished moderation ${id}`));
			expect(failed.pairedItem).toEqual({ item: 0 });
			expect(requests().filter((r) => r === `GET /image/${id}`).length).toBeGreaterThan(1);

			release();
			await mock.service.whenIdle(10_000);
			const again = await published();
			expect(again.outputOf(NODE_NAME, 0).map((item) => item.json)).toEqual([expect.objectContaining({ id, isSafe: true, event: 'moderation.completed' })]);
		} finally {
			release();
		}
	});
});
