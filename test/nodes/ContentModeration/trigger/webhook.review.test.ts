/**
 * Review repros (issue 55, point 1): a signed callback whose body is not a complete result must start no
 * workflow, be remembered nowhere, and be answered so that the sender retries.
 */
import { ContentModerationTrigger } from '@package/nodes/ContentModeration/ContentModerationTrigger.node';
import { imageResult } from '@test/helpers/callbackBodies';
import { useTriggerCallbacks } from '@test/helpers/triggerCallbacks';
import { postCallback, startTriggerServer, TEST_CALLBACK_SECRET } from '@test/helpers/webhook-server';
import { startScriptedServer } from '@test/helpers/scripted-server';

const callbacks = useTriggerCallbacks();

test('a signed moderation.completed whose data looks like a queue item (status "pending", no isSafe) starts nothing, and the later result of that id still starts the workflow', async () => {
	const server = await callbacks.trigger({ events: 'all' });
	const id = 'job-queue-shaped-1';
	const slim = { event: 'moderation.completed', data: { id, status: 'pending', accepted: false, type: 'image', content: 'https://x.test/a.png', moderation: null } };

	const first = await postCallback(server.webhookUrl, slim);
	const startedByFirst = server.executions.length;
	const second = await postCallback(server.webhookUrl, { event: 'moderation.completed', data: imageResult(id, { isSafe: false }) });

	// The verdict (isSafe false) is not lost as a "duplicate" of the queue-shaped call.
	expect(second.body).not.toMatchObject({ duplicate: true });
	expect(server.executions.map((run) => run[0].json.isSafe)).toContain(false);
	// No boolean isSafe and status "pending": not a complete result, nothing started, the sender asked again.
	expect(startedByFirst).toBe(0);
	expect(first.status).toBe(503);
});

test('a signed callback whose read-back the service refuses for good (403) starts nothing and is not remembered: once readable, a delivery of it again starts the verdict', async () => {
	let refusing = true;
	const service = await startScriptedServer((request) =>
		refusing
			? { status: 403, body: { message: 'forbidden' } }
			: { status: 200, body: imageResult(request.path.split('/').pop(), { isSafe: false }) },
	);
	try {
		const server = await startTriggerServer({
			parameters: { events: 'all' },
			credentials: { baseUrl: service.url, accessToken: 'tok-read-403-review', callbackSecret: TEST_CALLBACK_SECRET },
			token: TEST_CALLBACK_SECRET,
		});
		callbacks.servers.push(server);

		const first = await postCallback(server.webhookUrl, { id: 'job-403', isSafe: true });
		const startedByFirst = server.executions.length;
		refusing = false;
		const again = await postCallback(server.webhookUrl, { id: 'job-403', isSafe: true });

		// Once the read works, the verdict (isSafe false) starts the workflow: not a "duplicate".
		expect(again.body).not.toMatchObject({ duplicate: true });
		expect(server.executions.map((run) => run[0].json.isSafe)).toContain(false);
		// Still incomplete after the read: nothing delivered, the sender asked again.
		expect(startedByFirst).toBe(0);
		expect(first.status).toBe(503);
	} finally {
		await service.stop();
	}
});

test('Fetch Full Result off: an incomplete signed callback starts nothing and is answered 422, as the parameter describes', async () => {
	const server = await callbacks.trigger({ events: 'all', fetchFullResult: false });

	const answer = await postCallback(server.webhookUrl, { id: 'job-slim-off', isSafe: true });

	expect(server.executions).toHaveLength(0);
	expect(answer.status).toBe(422);
	const fetchFullResult = new ContentModerationTrigger().description.properties.find((p) => p.name === 'fetchFullResult');
	expect(fetchFullResult?.description).toContain('off, or without a credential, an incomplete callback is answered 422');
});

test('a signed slim callback {id, isSafe} of a TEXT moderation is completed and starts its verdict (it is not read from /image only, 404, and refused 503 for ever)', async () => {
	const server = await callbacks.trigger({ events: 'all' });
	const mock = callbacks.mock;
	const headers = { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' };
	const submitted = await fetch(`${mock.url}/text`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ text: 'you are an idiot', options: { defer: true } }),
	});
	const { id } = (await submitted.json()) as { id: string };
	await mock.whenIdle(5_000);
	const finished = (await (await fetch(`${mock.url}/text/${id}`, { headers })).json()) as { isSafe: boolean };
	expect(typeof finished.isSafe).toBe('boolean');

	const answers: unknown[] = [];
	// The sender retries a 503 a few times.
	for (let attempt = 0; attempt < 3 && server.executions.length === 0; attempt++) {
		answers.push(await postCallback(server.webhookUrl, { event: 'moderation.completed', data: { id, isSafe: true } }));
	}

	expect(answers).toContainEqual(expect.objectContaining({ status: 200 }));
	expect(server.executions).toHaveLength(1);
	expect(server.executions[0][0].json).toMatchObject({ id, isSafe: finished.isSafe });
});

test('Accept Callbacks Without a Secret with Include Headers and Query: nothing a stranger sends but the id reaches the item (no forged header or query value)', async () => {
	const server = await callbacks.trigger({ events: 'all', options: { acceptWithoutSecret: true, includeRequest: true } }, true, '');
	const { id } = await callbacks.moderate('https://images.test/safe.jpg');

	const answer = await postCallback(server.webhookUrl, { id }, { query: { isSafe: 'forged-query-81' }, headers: { 'x-verdict': 'forged-header-81' } });

	expect(answer.status).toBe(200);
	const text = JSON.stringify(server.executions);
	expect(text).not.toContain('forged-query-81');
	expect(text).not.toContain('forged-header-81');
});
