/**
 * The mock's own callbacks (`{event, data}`, as the vendor sends them) to the trigger through
 * n8n-core's real WebhookContext: an image result, a text result and a review decision each start exactly
 * one execution; a delivery the mock repeats (its retry after no answer in time) starts nothing more.
 */
import type { IDataObject } from 'n8n-workflow';

import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { startMockService, type MockService } from '@dev/mock/server';
import { postCallback, startTriggerServer, type TriggerServer } from '@test/helpers/webhook-server';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const SECRET = 'mock-cb-secret-2b7d';

let mock: MockService;
let trigger: TriggerServer;
let callbackUrl: string;

beforeAll(async () => {
	mock = await startMockService({ processMs: 30, callbackRetries: 2, callbackBackoffMs: 20 });
	trigger = await startTriggerServer({
		parameters: {},
		credentials: { baseUrl: mock.url, accessToken: mock.token, callbackSecret: SECRET },
	});
	callbackUrl = `${trigger.webhookUrl}?token=${SECRET}`;
	mock.configure({ webhookUrl: callbackUrl });
});

afterAll(async () => {
	await trigger.stop();
	await mock.stop();
});

beforeEach(() => resetProcessState());

async function call(path: string, body: unknown): Promise<IDataObject> {
	const response = await fetch(`${mock.url}${path}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(10_000),
	});
	expect(response.status).toBe(200);
	return (await response.json()) as IDataObject;
}

function executionsOf(id: string, event: string) {
	return trigger.executions.filter((run) => run[0].json.id === id && run[0].json.event === event);
}

test('an image result: one execution with the result, no read', async () => {
	const { id } = await call('/image', { image: SAFE_IMAGE_URL, options: { callbackUrl, meta: { postId: 'p-1' } } });
	await mock.whenIdle(10_000);
	const runs = executionsOf(id as string, 'moderation.completed');
	expect(runs).toHaveLength(1);
	expect(runs[0][0].json).toMatchObject({ id, isSafe: true, meta: { postId: 'p-1' } });
	expect(mock.requests.filter((r) => r.method === 'GET')).toHaveLength(0);
});

test('a text result: one execution with its text fields', async () => {
	const { id } = await call('/text', { text: 'what an idiot', options: { callbackUrl, bannedWords: ['idiot'] } });
	await mock.whenIdle(10_000);
	const runs = executionsOf(id as string, 'moderation.completed');
	expect(runs).toHaveLength(1);
	expect(runs[0][0].json).toMatchObject({ id, content: 'what an idiot', isSafe: false });
	expect(String(runs[0][0].json.filteredContent)).not.toContain('idiot');
});

test('a review decision through the account webhook: one execution with the decision', async () => {
	const item = await call('/queues/reviews-main', { type: 'text', content: 'check this', meta: { commentId: 'c-3' } });
	const itemId = item.id as string;
	await new Promise((resolve) => setTimeout(resolve, 200));
	mock.decide('reviews-main', itemId, 'rejected');
	await mock.whenIdle(10_000);
	await trigger.waitForExecutions(1, 5_000);
	const runs = executionsOf(itemId, 'queue.review.completed');
	expect(runs).toHaveLength(1);
	expect(runs[0][0].json).toMatchObject({ id: itemId, status: 'rejected', accepted: false, content: 'check this' });
	expect(JSON.stringify(trigger.executions)).not.toContain(SECRET);
});

test('the same delivery again (a sender retry) is acknowledged as a duplicate and starts nothing', async () => {
	const { id } = await call('/image', { image: SAFE_IMAGE_URL, options: { callbackUrl } });
	await mock.whenIdle(10_000);
	const attempt = mock.callbacks.find((a) => a.moderationId === id);
	expect(attempt).toMatchObject({ ok: true, status: 200 });
	const data = executionsOf(id as string, 'moderation.completed')[0][0].json;
	const { receivedAt: _r, event: _e, ...result } = data;
	const before = trigger.executions.length;

	const again = await postCallback(callbackUrl, { event: 'moderation.completed', data: result });

	expect(again).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id, duplicate: true } });
	expect(trigger.executions).toHaveLength(before);
});
