/**
 * Review repro (issue 55, point 4): under Accept Callbacks Without a Secret nothing a stranger sends may
 * reach the item but its id. With Pass On Repeated Deliveries on, a repeat of a completion already passed
 * on is output as the caller sent it (receive.operation.ts execute: `{ ...data, event, duplicate: true }`),
 * before any read-back: a stranger's forged verdict reaches the output.
 */
import type { IDataObject } from 'n8n-workflow';

import { UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { deferredImageId, output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const mock = useMock();
beforeEach(() => resetProcessState());

const webhookItem = (body: unknown) => ({
	json: { headers: { 'content-type': 'application/json' }, params: {}, query: {}, body, webhookUrl: 'http://n8n/webhook/x' } as IDataObject,
});

async function receive(body: unknown) {
	return await runWorkflow({
		nodes: [moderationNode({ resource: 'callback', operation: 'receive', passOnRepeats: true, options: { acceptWithoutSecret: true } })],
		credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: SECRET_TOKEN, callbackSecret: '' } },
		items: [webhookItem(body)],
		mode: 'webhook',
	});
}

describe('Callback > Receive, Accept Callbacks Without a Secret, Pass On Repeated Deliveries', () => {
	it("a stranger's repeat of a known id outputs only the service's result, never the forged verdict it sends", async () => {
		const id = await deferredImageId(mock, UNSAFE_IMAGE_URL);
		const forged = { event: 'moderation.completed', data: { id, isSafe: true, summary: 'forged-by-stranger-91', suggestedActions: { reject: false, review: false } } };

		const first = await receive(forged);
		expect(first.status).toBe('success');
		expect(output(first)[0].json).toMatchObject({ id, isSafe: false });

		const second = await receive(forged);
		expect(second.status).toBe('success');
		const item = output(second)[0].json;
		expect(item.duplicate).toBe(true);
		// Nothing the caller sent but the id: not its isSafe, not its summary.
		expect(JSON.stringify(item)).not.toContain('forged-by-stranger-91');
		expect(item.isSafe).not.toBe(true);
	});
});

describe('Callback > Receive, signed, the completion rule (issue 55 point 2)', () => {
	it('a moderation.completed whose data looks like a queue item (status "pending", no isSafe) is not passed on as a result', async () => {
		const secret = 'cb-secret/review-queue-shaped';
		const body = { event: 'moderation.completed', data: { id: 'job-queue-shaped-2', status: 'pending', accepted: false, type: 'text', content: 'hello', moderation: null } };
		const run = await runWorkflow({
			nodes: [moderationNode({ resource: 'callback', operation: 'receive' })],
			credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: SECRET_TOKEN, callbackSecret: secret } },
			items: [{ json: { ...webhookItem(body).json, query: { token: secret } } }],
			mode: 'webhook',
		});
		// Not a complete result (no boolean isSafe, status pending): the item fails, nothing is output.
		expect(output(run).map((item) => item.json)).toEqual([]);
		expect(run.status).not.toBe('success');
	});
});

describe('Callback > Receive, signed, Pass On Repeated Deliveries (issue 55 point 2)', () => {
	it('a repeat of a slim callback {id, isSafe: true} is not output as the result: the first was read back, the repeat passes the slim body on unchecked', async () => {
		const secret = 'cb-secret/review-slim-repeat';
		const id = await deferredImageId(mock, UNSAFE_IMAGE_URL);
		const slim = { event: 'moderation.completed', data: { id, isSafe: true } };
		const runOnce = async () =>
			await runWorkflow({
				nodes: [moderationNode({ resource: 'callback', operation: 'receive', passOnRepeats: true })],
				credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: SECRET_TOKEN, callbackSecret: secret } },
				items: [{ json: { ...webhookItem(slim).json, query: { token: secret } } }],
				mode: 'webhook',
			});

		const first = await runOnce();
		expect(output(first)[0].json).toMatchObject({ id, isSafe: false });

		const repeat = await runOnce();
		const item = output(repeat)[0].json;
		expect(item.duplicate).toBe(true);
		// A repeat is not a complete result: it must not stand for one (isSafe true, no riskScores).
		expect(item).toMatchObject({ isSafe: false });
	});
});
