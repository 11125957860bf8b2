/**
 * Callback > Receive's secret rule (inbound/secretRule.ts) through n8n-core's engine: a production
 * execution without a Callback Secret of 16 or more characters fails with the fix, unless Accept
 * Callbacks Without a Secret is on, and then a result is read back instead of trusted from the call.
 */
import type { IDataObject } from 'n8n-workflow';

import { SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { imageResult } from '@test/helpers/callbackBodies';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { deferredImageId, nodeError, output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';
import { SECRET_REQUIRED_DESCRIPTION, secretRequiredMessage, TEST_URL_NOTE } from '@package/nodes/ContentModeration/inbound/secretRule';

const mock = useMock();

const webhookItem = (body: unknown, query: IDataObject = {}) => ({
	json: { headers: { 'content-type': 'application/json' }, params: {}, query, body, webhookUrl: 'http://n8n/webhook/x' } as IDataObject,
});

async function receive(item: { json: IDataObject }, callbackSecret: string, mode: 'manual' | 'webhook', options: { acceptWithoutSecret?: boolean } = {}) {
	return await runWorkflow({
		nodes: [moderationNode({ resource: 'callback', operation: 'receive', options })],
		credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: SECRET_TOKEN, callbackSecret } },
		items: [item],
		mode,
	});
}

describe('Callback > Receive without a usable Callback Secret', () => {
	it.each([
		['none', ''],
		['15 characters', 'cb-short/15char'],
	])('%s, in a production execution: the run fails naming the field and the fix, nothing read', async (_name, secret) => {
		const run = await receive(webhookItem({ event: 'moderation.completed', data: { id: 'x-1', isSafe: true } }, { token: secret }), secret, 'webhook');
		const error = nodeError(run);
		expect(error.message).toBe(secretRequiredMessage());
		expect(error.message).toContain('"Callback Secret" field');
		expect(error.description).toBe(SECRET_REQUIRED_DESCRIPTION);
		expect(error.context?.itemIndex).toBe(0);
		expect(mock.service.requests).toEqual([]);
	});

	it('in a manual execution: accepted, the output says production will require one', async () => {
		// A whole result: one missing fields would be read back (inbound/readBack.ts).
		const data = imageResult('x-2');
		const run = await receive(webhookItem({ event: 'moderation.completed', data }), '', 'manual');
		expect(output(run)[0].json).toEqual({ ...data, event: 'moderation.completed', callbackSecretNotice: TEST_URL_NOTE });
	});

	it('with Accept Callbacks Without a Secret: a forged verdict is replaced by the one read back', async () => {
		const id = await deferredImageId(mock, UNSAFE_IMAGE_URL);
		const forged = { id, isSafe: true, summary: 'all fine', suggestedActions: { reject: false, review: false } };
		const run = await receive(webhookItem({ event: 'moderation.completed', data: forged }), '', 'webhook', { acceptWithoutSecret: true });
		expect(run.status).toBe('success');
		expect(output(run)[0].json).toMatchObject({ id, isSafe: false, event: 'moderation.completed' });
		expect(output(run)[0].json.summary).not.toBe('all fine');
		expect(mock.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /image/${id}`]);
	});

	it('with Accept Callbacks Without a Secret: a review decision cannot be read back, so the item fails and nothing is passed on', async () => {
		const decision = { event: 'queue.review.completed', data: { id: 'q-1', status: 'accepted', accepted: true, isSafe: true } };
		const run = await receive(webhookItem(decision), '', 'webhook', { acceptWithoutSecret: true });
		expect(nodeError(run).message).toMatch(/cannot be read back/);
		expect(mock.service.requests).toEqual([]);
	});

	it('with Accept Callbacks Without a Secret: an id the service does not know fails the item', async () => {
		await deferredImageId(mock, SAFE_IMAGE_URL);
		const run = await receive(webhookItem({ event: 'moderation.completed', data: { id: '00000000-0000-4000-8000-00000000dead', isSafe: true } }), '', 'webhook', { acceptWithoutSecret: true });
		const error = nodeError(run);
		expect(error.context?.itemIndex).toBe(0);
		expect(error.httpCode).toBe('404');
		expect(error.message).toMatch(/answered 404/);
		expect(run.status).not.toBe('success');
	});
});
