/**
 * Callback > Receive in a sub-workflow (n8n's Execute Workflow runs it in mode 'integrated'): the Callback Secret is
 * required as in production; repeats are not told apart (a retried parent must not lose its verdict), and a hint
 * under the output says so.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { imageResult } from '@test/helpers/callbackBodies';
import { output, SECRET_TOKEN } from '@test/helpers/nodeRun';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { SUB_WORKFLOW_HINT } from '@package/nodes/ContentModeration/actions/callback/receive.operation';

const SECRET = 'cb-secret/integrated-9f1e';
const webhookItem = (body: unknown) => ({
	json: { headers: { 'content-type': 'application/json' }, params: {}, query: { token: SECRET }, body } as IDataObject,
});

const receiveWorkflow = (item: ReturnType<typeof webhookItem>) => ({
	nodes: [moderationNode({ resource: 'callback', operation: 'receive' })],
	credentials: { contentModerationApi: { baseUrl: 'http://127.0.0.1:9', accessToken: SECRET_TOKEN, callbackSecret: SECRET } },
	items: [item],
});

async function receive(body: unknown, mode: string) {
	const done = await runWorkflow({ ...receiveWorkflow(webhookItem(body)), mode: mode as 'webhook' });
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

test('a sub-workflow passes a repeated delivery on again, and says so under the output', async () => {
	// n8n runs a sub-workflow `integrated` for a parent's delivery, editor run and retry alike: a repeat is not
	// recognised there, so that a retried parent does not lose its verdict.
	const other = { event: 'moderation.completed', data: imageResult(randomUUID()) };
	for (const round of [1, 2]) {
		const done = await runWorkflow({ ...receiveWorkflow(webhookItem(other)), mode: 'integrated' as 'webhook' });
		expect([round, output(done)]).toEqual([round, [expect.objectContaining({ json: expect.objectContaining({ id: other.data.id }) })]]);
		expect(done.runData['Content Moderation']?.[0]?.hints?.map((hint) => hint.message)).toEqual([SUB_WORKFLOW_HINT]);
	}
	const webhook = { event: 'moderation.completed', data: imageResult(randomUUID()) };
	expect(await receive(webhook, 'webhook')).toHaveLength(1);
	expect(await receive(webhook, 'webhook')).toEqual([]);
});
