/**
 * The account webhook on the trigger (as the README asks, for review decisions) while deferred moderations
 * run: the vendor sends every deferred result there as well (the mock does, docs/service-interface.md). A
 * user who polls (Deferred and Wait) gets one trigger execution per result, unless Events is Review
 * Decisions Only; a result whose Callback URL is the same trigger starts it once, not twice.
 */
import { SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { startMockService, type MockService } from '@dev/mock/server';
import { moderateUrlParameters, moderationNode, runWorkflow } from '@test/helpers/engine';
import { startTriggerServer, TEST_CALLBACK_SECRET, type TriggerServer } from '@test/helpers/webhook-server';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

let mock: MockService;
const triggers: TriggerServer[] = [];

beforeAll(async () => {
	mock = await startMockService({ processMs: 100, callbackBackoffMs: 20 });
});

afterAll(async () => {
	await Promise.all(triggers.map(async (trigger) => await trigger.stop()));
	await mock.stop();
});

beforeEach(() => resetProcessState());

/** A published trigger with these parameters, set as the account webhook (its Production URL + ?token=). */
async function accountTrigger(parameters: Record<string, string>): Promise<TriggerServer> {
	const trigger = await startTriggerServer({
		parameters,
		credentials: { baseUrl: mock.url, accessToken: mock.token, callbackSecret: TEST_CALLBACK_SECRET },
		token: TEST_CALLBACK_SECRET,
	});
	triggers.push(trigger);
	mock.configure({ webhookUrl: trigger.webhookUrl });
	return trigger;
}

async function moderate(imageUrl: string, mode: 'deferredWait' | 'deferred', callbackUrl?: string) {
	const run = await runWorkflow({
		nodes: [moderationNode(moderateUrlParameters({ mode, pollInterval: 0.1, options: callbackUrl ? { callbackUrl } : {} }))],
		items: [{ json: { url: imageUrl } }],
		credentials: { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token, callbackSecret: TEST_CALLBACK_SECRET } },
	});
	expect(run.status).toBe('success');
	return run.outputOf('Content Moderation')[0].json as { id: string; isSafe?: boolean };
}

const startedFor = (trigger: TriggerServer, id: string) =>
	trigger.executions.filter((items) => items[0].json.id === id && items[0].json.event === 'moderation.completed');

test('Deferred and Wait reads its result and the trigger on the account webhook starts once for it too', async () => {
	const trigger = await accountTrigger({});
	const polled = await moderate(UNSAFE_IMAGE_URL, 'deferredWait');
	expect(polled.isSafe).toBe(false);
	await mock.whenDelivered([polled.id]);
	expect(startedFor(trigger, polled.id)).toHaveLength(1);
	expect(startedFor(trigger, polled.id)[0][0].json).toMatchObject({ isSafe: false });
});

test('with Events: Review Decisions Only the same result is acknowledged and starts nothing', async () => {
	const trigger = await accountTrigger({ eventTypes: 'reviews' });
	const polled = await moderate(SAFE_IMAGE_URL, 'deferredWait');
	await mock.whenDelivered([polled.id]);
	expect(mock.callbacks.filter((attempt) => attempt.moderationId === polled.id).map((attempt) => attempt.status)).toEqual([200]);
	expect(trigger.executions).toHaveLength(0);
});

test('Deferred with the same trigger as Callback URL: two deliveries, one execution', async () => {
	const trigger = await accountTrigger({});
	const { id } = await moderate(SAFE_IMAGE_URL, 'deferred', trigger.webhookUrl.split('?')[0]);
	await mock.whenDelivered([id]);
	expect(mock.callbacks.filter((attempt) => attempt.moderationId === id && attempt.ok)).toHaveLength(2);
	expect(startedFor(trigger, id)).toHaveLength(1);
});
