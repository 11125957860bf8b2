/**
 * Callback > Receive in a sub-workflow (n8n's Execute Workflow runs it in mode 'integrated'): the Callback Secret is
 * required as in production, and a repeated delivery is told apart there too, so a sender's retry passes nothing on.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { imageResult } from '@test/helpers/callbackBodies';
import { output, SECRET_TOKEN } from '@test/helpers/nodeRun';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const SECRET = 'cb-secret/integrated-9f1e';
const webhookItem = (body: unknown) => ({
	json: { headers: { 'content-type': 'application/json' }, params: {}, query: { token: SECRET }, body } as IDataObject,
});

async function receive(body: unknown, mode: string) {
	const done = await runWorkflow({
		nodes: [moderationNode({ resource: 'callback', operation: 'receive' })],
		credentials: { contentModerationApi: { baseUrl: 'http://127.0.0.1:9', accessToken: SECRET_TOKEN, callbackSecret: SECRET } },
		items: [webhookItem(body)],
		mode: mode as 'webhook',
	});
	expect(done.status).toBe('success');
	return output(done);
}

beforeEach(() => resetProcessState());

test('a sub-workflow (mode integrated) requires the Callback Secret as production does', async () => {
	const done = await runWorkflow({
		nodes: [moderationNode({ resource: 'callback', operation: 'receive' })],
		credentials: { contentModerationApi: { baseUrl: 'http://127.0.0.1:9', accessToken: SECRET_TOKEN, callbackSecret: 'short' } },
		items: [webhookItem({ event: 'moderation.completed', data: imageResult(randomUUID()) })],
		mode: 'integrated' as 'webhook',
	});
	expect(done.status).toBe('error');
});

test('a sub-workflow passes a repeated delivery on once, as a webhook execution does', async () => {
	const body = { event: 'moderation.completed', data: imageResult(randomUUID()) };
	expect(await receive(body, 'webhook')).toHaveLength(1);
	expect(await receive(body, 'webhook')).toEqual([]);
	const other = { event: 'moderation.completed', data: imageResult(randomUUID()) };
	expect(await receive(other, 'integrated')).toHaveLength(1);
	expect(await receive(other, 'integrated')).toEqual([]);
});
