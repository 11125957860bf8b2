/**
 * A callback's reads end within 4 s of its start (trigger/webhook.ts, CALLBACK_READS_END_MS), whatever the
 * service takes: the sender gets its answer inside its 5 s, nothing starts and nothing is recorded, and its
 * retry, once the service answers, starts the workflow with the verdict.
 */
import { imageResult } from '@test/helpers/callbackBodies';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';
import { postCallback, startTriggerServer, TEST_CALLBACK_SECRET, type TriggerServer } from '@test/helpers/webhook-server';

import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

let slow = true;
let service: ScriptedServer;
let server: TriggerServer;

beforeAll(async () => {
	service = await startScriptedServer((request) => ({ status: 200, body: imageResult(request.path.split('/').pop()), delayMs: slow ? 12_000 : 0 }));
	resetProcessState();
	server = await startTriggerServer({
		parameters: { events: 'all' },
		credentials: { baseUrl: service.url, accessToken: 'tok-slow-1', callbackSecret: TEST_CALLBACK_SECRET },
	});
});
afterAll(async () => {
	await server.stop();
	await service.stop();
});

test('a service that answers the read after 12 s: 503 within 5 s, nothing started; the retry starts it with the verdict', async () => {
	const body = { event: 'moderation.completed', data: { id: 'slow-1' } };
	const options = { query: { token: TEST_CALLBACK_SECRET } };
	const started = Date.now();
	const answer = await postCallback(server.webhookUrl, body, options);
	// 4 s and the harness's own time; a loaded machine may add some.
	expect(Date.now() - started).toBeLessThan(8_000);
	expect(answer.status).toBe(503);
	expect(JSON.stringify(answer.body)).toContain('no answer in time');
	expect(server.executions).toHaveLength(0);

	slow = false;
	const again = await postCallback(server.webhookUrl, body, options);
	expect(again.status).toBe(200);
	expect(server.executions[0][0].json).toMatchObject({ id: 'slow-1', isSafe: true });
}, 30_000);
