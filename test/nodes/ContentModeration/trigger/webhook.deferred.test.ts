/**
 * End to end in one process: the action node (Image > Moderate, mode deferred) runs through
 * n8n-core's real engine against the mock service with its Callback URL pointing at a running
 * trigger webhook; the mock's completion callback starts the trigger.
 */
import type { IDataObject } from 'n8n-workflow';

import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { startMockService, type MockService } from '@dev/mock/server';
import { startTriggerServer, type TriggerServer } from '@test/helpers/webhook-server';

const CALLBACK_SECRET = 'deferred-cb-secret';

let mock: MockService;
let trigger: TriggerServer;

beforeAll(async () => {
	mock = await startMockService({ processMs: 50, callbackRetries: 2, callbackBackoffMs: 20 });
	trigger = await startTriggerServer({
		parameters: { events: 'all' },
		credentials: { baseUrl: mock.url, accessToken: mock.token, callbackSecret: CALLBACK_SECRET },
	});
});

afterAll(async () => {
	await trigger.stop();
	await mock.stop();
});

/** Submits with the trigger's URL as Callback URL; the node adds the credential's Callback Secret when it has one. */
async function submitDeferred(imageUrl: string, callbackSecret: string): Promise<string> {
	const run = await runWorkflow({
		nodes: [
			moderationNode({
				resource: 'image',
				operation: 'moderate',
				inputType: 'url',
				imageUrl,
				mode: 'deferred',
				options: { callbackUrl: trigger.webhookUrl },
			}),
		],
		credentials: { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token, callbackSecret } },
	});
	expect(run.status).toBe('success');
	const output = run.outputOf('Content Moderation');
	expect(output).toHaveLength(1);
	const { id } = output[0].json as { id: string };
	expect(typeof id).toBe('string');
	return id;
}

test('a deferred Image > Moderate with the trigger URL as Callback URL starts the trigger with the full result', async () => {
	const id = await submitDeferred(UNSAFE_IMAGE_URL, CALLBACK_SECRET);

	await trigger.waitForExecutions(1, 10_000);
	await mock.whenIdle(10_000);

	expect(trigger.executions).toHaveLength(1);
	expect(trigger.executions[0]).toHaveLength(1);
	const item = trigger.executions[0][0].json;

	// The same result the service gives when it is read by id (a read has no id; the callback carries it).
	const read = await fetch(`${mock.url}/image/${id}`, {
		headers: { authorization: `Bearer ${mock.token}` },
		signal: AbortSignal.timeout(10_000),
	});
	expect(read.status).toBe(200);
	const { receivedAt, ...result } = item;
	expect(result).toEqual({ ...((await read.json()) as IDataObject), id, event: 'moderation.completed' });
	expect(item.id).toBe(id);
	expect(item.isSafe).toBe(false);
	expect((item.suggestedActions as IDataObject).reject).toBe(true);
	expect(typeof receivedAt).toBe('string');
	expect(item.error).toBeUndefined();

	const deliveries = mock.callbacks.filter((attempt) => attempt.moderationId === id);
	expect(deliveries).toHaveLength(1);
	expect(deliveries[0]).toMatchObject({ ok: true, status: 200, attempt: 1 });
	expect(JSON.stringify(trigger.executions)).not.toContain(CALLBACK_SECRET);
});

test('a callback URL without the token is refused with 401 and starts nothing', async () => {
	const before = trigger.executions.length;

	const id = await submitDeferred(SAFE_IMAGE_URL, '');
	await mock.whenIdle(10_000);

	const deliveries = mock.callbacks.filter((attempt) => attempt.moderationId === id);
	expect(deliveries.length).toBeGreaterThanOrEqual(1);
	expect(deliveries.every((attempt) => attempt.status === 401 && !attempt.ok)).toBe(true);
	expect(trigger.executions).toHaveLength(before);
});
