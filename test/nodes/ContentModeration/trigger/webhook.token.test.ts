/**
 * The trigger's check of the callback secret and token (webhook.ts, secretCheck.ts with inbound/token.ts),
 * through n8n-core's real WebhookContext and real HTTP: a wrong or missing token is refused and starts
 * nothing, and the secret never reaches an item.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { CALLBACK_TOKEN, useTriggerCallbacks } from '@test/helpers/triggerCallbacks';
import { N8N_PLACEHOLDERS, postCallback, startTriggerServer, type TriggerServer } from '@test/helpers/webhook-server';

const callbacks = useTriggerCallbacks();
const { trigger, moderate, servers } = callbacks;
let mock: MockService;
beforeAll(() => {
	mock = callbacks.mock;
});

describe('callback secret of the credential', () => {
	const SECRET = 'cred-cb-secret-91d4';

	async function secured(): Promise<TriggerServer> {
		const server = await startTriggerServer({
			parameters: { events: 'all' },
			credentials: { baseUrl: mock.url, accessToken: mock.token, callbackSecret: SECRET },
		});
		servers.push(server);
		return server;
	}

	test('only calls carrying the credential secret start a workflow', async () => {
		const server = await secured();
		const result = await moderate(SAFE_IMAGE_URL);

		const none = await postCallback(server.webhookUrl, result);
		const wrong = await postCallback(server.webhookUrl, result, { query: { token: 'wrong' } });
		const right = await postCallback(server.webhookUrl, result, { query: { token: SECRET } });
		// Another completion: a repeat of the first would be acknowledged and start nothing.
		const header = await postCallback(server.webhookUrl, { ...result, id: randomUUID() }, { headers: { 'X-Callback-Token': SECRET } });

		expect([none.status, wrong.status, right.status, header.status]).toEqual([401, 401, 200, 200]);
		expect(server.executions).toHaveLength(2);
		expect(JSON.stringify([none.body, wrong.body, server.executions])).not.toContain(SECRET);
	});

	test('a credential that cannot be read: 503 so that the sender tries again, nothing starts (its secret cannot be checked)', async () => {
		const server = await startTriggerServer({ parameters: { events: 'all' }, unreadableCredential: true });
		servers.push(server);
		const answer = await postCallback(server.webhookUrl, await moderate(SAFE_IMAGE_URL), { query: { token: SECRET } });
		expect(answer).toEqual({
			status: 503,
			body: { received: false, error: { status: 503, message: expect.stringMatching(/credential of this trigger could not be read; try this callback again/) } },
		});
		expect(server.executions).toHaveLength(0);
	});

	test('a callback to a published trigger that carries its Callback Secret starts the workflow', async () => {
		const server = await trigger({ events: 'all' });
		const answer = await postCallback(server.webhookUrl, await moderate(SAFE_IMAGE_URL));
		expect(answer.status).toBe(200);
	});
});

describe('callback token', () => {
	let server: TriggerServer;
	let result: IDataObject & { id: string };

	beforeAll(async () => {
		server = await trigger({ events: 'all' }, true, CALLBACK_TOKEN);
		result = await moderate(SAFE_IMAGE_URL);
	});

	const accepted: Array<[string, { query?: Record<string, string>; headers?: Record<string, string> }]> = [
		['right token in the query', { query: { token: CALLBACK_TOKEN } }],
		['right token in the header', { headers: { 'X-Callback-Token': CALLBACK_TOKEN } }],
		['wrong query, right header', { query: { token: 'nope' }, headers: { 'X-Callback-Token': CALLBACK_TOKEN } }],
	];
	const refused: Array<[string, { query?: Record<string, string>; headers?: Record<string, string> }, RegExp]> = [
		['no token', {}, /Missing callback token/],
		['empty query token', { query: { token: '' } }, /Missing callback token/],
		['wrong query token', { query: { token: 'wrong' } }, /Invalid callback token/],
		['query token of the same length', { query: { token: 'cb-secret-7f3b' } }, /Invalid callback token/],
		['token with a suffix', { query: { token: `${CALLBACK_TOKEN}x` } }, /Invalid callback token/],
		['wrong header token', { headers: { 'X-Callback-Token': 'wrong' } }, /Invalid callback token/],
		['token as a bearer header', { headers: { Authorization: `Bearer ${CALLBACK_TOKEN}` } }, /Missing/],
		['token twice in the query', { query: { token: CALLBACK_TOKEN } }, /Invalid callback token/],
	];

	test.each(accepted)('%s: 200 and one execution', async (_name, init) => {
		const before = server.executions.length;
		const completion = { ...result, id: randomUUID() };
		const answer = await postCallback(server.webhookUrl, completion, init);
		expect(answer).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: completion.id } });
		expect(server.executions).toHaveLength(before + 1);
	});

	test.each(refused)('%s: 401 JSON and no execution', async (name, init, message) => {
		const before = server.executions.length;
		const url = name === 'token twice in the query' ? `${server.webhookUrl}?token=x` : server.webhookUrl;

		const answer = await postCallback(url, result, init);

		expect(answer.status).toBe(401);
		const error = (answer.body as { error: { status: number; message: string } }).error;
		expect(error).toEqual({ status: 401, message: expect.stringMatching(message) });
		expect(JSON.stringify(answer.body)).not.toContain(CALLBACK_TOKEN);
		expect(server.executions).toHaveLength(before);
	});

	test('the token is checked before the body: a bad body without a token gets 401', async () => {
		const answer = await postCallback(server.webhookUrl, 'not json', { contentType: 'text/plain' });
		expect(answer.status).toBe(401);
	});
});

test('no answer is ever n8n placeholder text', async () => {
	const server = await trigger({ events: 'flagged' });
	await postCallback(server.webhookUrl, await moderate(SAFE_IMAGE_URL));
	await postCallback(server.webhookUrl, await moderate(UNSAFE_IMAGE_URL));
	await postCallback(server.webhookUrl, 'nope', { contentType: 'text/plain' });
	expect(server.calls).toHaveLength(3);
	for (const call of server.calls) {
		for (const placeholder of N8N_PLACEHOLDERS) expect(call.body).not.toEqual(placeholder);
	}
});
