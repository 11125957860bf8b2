/**
 * Wait for Callback while the account webhook points at a trigger: the service sends the result to the
 * waiting execution's resume URL and, as its documents say of every deferred result, to the account webhook.
 * The execution continues with the result, and the trigger starts once for the same result.
 */
import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { startTriggerServer, TEST_CALLBACK_SECRET, type TriggerServer } from '@test/helpers/webhook-server';
import { NODE, urlItems, useWaitingImages, waitParameters } from '@test/helpers/waitingImages';

const waiting = useWaitingImages();
let trigger: TriggerServer;

beforeAll(async () => {
	trigger = await startTriggerServer({
		parameters: {},
		credentials: { baseUrl: waiting.mock.url, accessToken: waiting.mock.token, callbackSecret: TEST_CALLBACK_SECRET },
		token: TEST_CALLBACK_SECRET,
	});
});

afterAll(async () => {
	waiting.mock.configure({ webhookUrl: null });
	await trigger.stop();
});

test('the waiting execution gets its result, and the trigger on the account webhook starts once for it too', async () => {
	waiting.mock.configure({ webhookUrl: trigger.webhookUrl });
	const execution = await waiting.startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL]));
	const run = await execution.finished(30_000);
	const [item] = run.outputOf(NODE);
	expect(item.json).toMatchObject({ isSafe: true });
	const id = String(item.json.id);
	await waiting.mock.whenDelivered([id], 30_000);
	const started = trigger.executions.filter((items) => items[0].json.id === id && items[0].json.event === 'moderation.completed');
	expect(started).toHaveLength(1);
	expect(waiting.mock.callbacks.filter((attempt) => attempt.moderationId === id && attempt.ok).map((attempt) => new URL(attempt.url).pathname)).toEqual(
		expect.arrayContaining([new URL(trigger.webhookUrl).pathname]),
	);
});
