/**
 * No secret in plain sight, trigger side: what it answers (refusals included) and every item it starts a
 * workflow with, searched whole for the access token and the callback secret in every form. Proxies copy
 * the original URL, with its ?token=, into headers that Include Headers and Query passes on.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { imageResult } from '@test/helpers/callbackBodies';
import { HarnessCredentialsHelper } from '@test/helpers/engine/credentials';
import { everyString, findLeaks } from '@test/helpers/leaks';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';
import { postCallback, startTriggerServer, WEBHOOK_ID, type TriggerServer } from '@test/helpers/webhook-server';

const ACCESS_TOKEN = 'at-7f3a"91\\q/+&=Kx';
const CALLBACK_SECRET = 'cb"e21\\r/é+&=z q-5d';
const SECRETS = [ACCESS_TOKEN, CALLBACK_SECRET];

const servers: TriggerServer[] = [];
let service: ScriptedServer;

beforeAll(async () => {
	// The full-result read is refused (a 4xx, answered 503: nothing starts), echoing the Authorization header it
	// got; the results of `job-6-…` are readable.
	service = await startScriptedServer((request) =>
		request.path.includes('/job-6-')
			? { status: 200, body: imageResult(request.path.split('/').pop()) }
			: { status: 400, body: { message: `cannot read, you sent ${String(request.headers.authorization)}` } },
	);
});

afterAll(async () => {
	await Promise.all(servers.map(async (server) => await server.stop()));
	await service.stop();
});

/** `callbackSecret` null: the credential has none (then served as the editor's test URL). */
async function trigger(parameters: INodeParameters, callbackSecret: string | null = CALLBACK_SECRET) {
	const server = await startTriggerServer({
		mode: callbackSecret === null ? 'manual' : 'webhook',
		parameters: { events: 'all', options: { includeRequest: true }, ...parameters },
		credentials: {
			baseUrl: service.url,
			accessToken: ACCESS_TOKEN,
			...(callbackSecret === null ? {} : { callbackSecret }),
		},
	});
	servers.push(server);
	return server;
}

/** Headers a reverse proxy adds with the original request URI, query and token included. */
function proxyHeaders(server: TriggerServer, token: string): Record<string, string> {
	const path = `/webhook/${WEBHOOK_ID}/callback?token=${encodeURIComponent(token)}&source=proxy`;
	return {
		'X-Forwarded-Uri': path,
		'X-Original-Uri': path,
		'X-Original-Url': `${server.baseUrl}${path}`,
		'X-Envoy-Original-Path': path,
		Referer: `${server.baseUrl}${path}`,
		Cookie: `cb=${encodeURIComponent(token)}`,
		Authorization: `Bearer ${encodeURIComponent(token)}`,
	};
}

/** Everything the trigger gave out: answers and started items. */
const outputs = (server: TriggerServer) => ({ calls: server.calls, executions: server.executions });

test('accepted through the credential secret: the copied query and proxy headers hold no secret', async () => {
	const server = await trigger({});

	const answer = await postCallback(server.webhookUrl, imageResult('job-123'), {
		query: { token: CALLBACK_SECRET, source: 'n8n' },
		headers: proxyHeaders(server, CALLBACK_SECRET),
	});

	expect(answer).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: 'job-123' } });
	const item = server.executions[0][0].json;
	expect(item.query).toEqual({ token: '[redacted]', source: 'n8n' });
	const headers = item.headers as Record<string, string>;
	expect(headers['x-forwarded-uri']).toBe(`/webhook/${WEBHOOK_ID}/callback?token=***&source=proxy`);
	expect(headers['x-original-url']).toBe(`${server.baseUrl}/webhook/${WEBHOOK_ID}/callback?token=***&source=proxy`);
	expect(headers.referer).toContain('token=***');
	expect(findLeaks(outputs(server), SECRETS)).toEqual([]);
});

test('a read the service refuses (its message echoing the key): answered 503, nothing starts, no secret in the answer', async () => {
	const server = await trigger({});
	const answer = await postCallback(server.webhookUrl, { id: 'job-123' }, { query: { token: CALLBACK_SECRET } });
	expect(answer.status).toBe(503);
	expect(JSON.stringify(answer.body)).toContain('Reading moderation job-123 failed (HTTP 400)');
	expect(service.requests.at(-1)?.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
	expect(server.executions).toHaveLength(0);
	expect(findLeaks(outputs(server), SECRETS)).toEqual([]);
});

test('a callback body echoing the secrets (meta, description) is redacted in the item and the answer', async () => {
	const server = await trigger({}, CALLBACK_SECRET);
	const callbackUrl = `${server.webhookUrl}?token=${encodeURIComponent(CALLBACK_SECRET)}`;

	const answer = await postCallback(
		server.webhookUrl,
		{
			...imageResult(`job-${CALLBACK_SECRET}`),
			description: `sent with ${ACCESS_TOKEN}`,
			meta: { callbackUrl, b64: Buffer.from(CALLBACK_SECRET).toString('base64') },
			image: SAFE_IMAGE_URL,
		},
		{ headers: { 'X-Callback-Token': encodeURIComponent(CALLBACK_SECRET) } },
	);

	// The header carries the secret URL-encoded, which is not the secret: refused, and nothing echoed.
	expect(answer.status).toBe(401);
	const accepted = await postCallback(
		server.webhookUrl,
		{ ...imageResult(`job-${CALLBACK_SECRET}`), description: `sent with ${ACCESS_TOKEN}`, meta: { callbackUrl } },
		{ query: { token: CALLBACK_SECRET } },
	);
	expect(accepted.status).toBe(200);
	expect((accepted.body as { id: string }).id).toBe('job-***');
	expect(server.executions[0][0].json.meta).toEqual({ callbackUrl: `${server.webhookUrl}?token=***` });
	expect(findLeaks(outputs(server), SECRETS)).toEqual([]);
});

test.each([
	['a wrong token', { token: 'wrong-1' }, 401],
	['no token', {}, 401],
])('refused with %s: the answer holds no secret and nothing starts', async (_name, query, status) => {
	const server = await trigger({});
	const answer = await postCallback(server.webhookUrl, { id: 'job-1', isSafe: true }, { query, headers: proxyHeaders(server, 'wrong-1') });
	expect(answer.status).toBe(status);
	expect(server.executions).toHaveLength(0);
	expect(findLeaks(outputs(server), SECRETS)).toEqual([]);
});

test('refused as a bad body with the right secret: the 400 answer holds no secret', async () => {
	const server = await trigger({});
	const answer = await postCallback(server.webhookUrl, { status: 'done' }, { query: { token: CALLBACK_SECRET } });
	expect(answer.status).toBe(400);
	expect(findLeaks(outputs(server), SECRETS)).toEqual([]);
});

test('no secret configured (the test URL): a token the caller sends (query, or only in a proxy header) is still hidden', async () => {
	const server = await trigger({}, null);
	const headers = { ...proxyHeaders(server, 'caller-tok-1'), 'X-Original-Uri': '/webhook/x/callback?token=stripped-tok-2' };
	await postCallback(server.webhookUrl, imageResult('job-3'), { query: { token: 'caller-tok-1' }, headers });
	expect(server.executions).toHaveLength(1);
	expect(findLeaks(outputs(server), [...SECRETS, 'caller-tok-1', 'stripped-tok-2'])).toEqual([]);
});

test('a 6-character secret on the test URL: the token inside proxy headers is masked, the rest of the item kept', async () => {
	const server = await startTriggerServer({
		mode: 'manual',
		parameters: { events: 'all', options: { includeRequest: true } },
		credentials: { baseUrl: service.url, accessToken: ACCESS_TOKEN, callbackSecret: 'k3y-6c' },
	});
	servers.push(server);
	const body = { id: 'job-6-manual', isSafe: true };
	const answer = await postCallback(server.webhookUrl, body, { query: { token: 'k3y-6c' }, headers: proxyHeaders(server, 'k3y-6c') });
	expect(answer.status).toBe(200);
	const headers = server.executions[0][0].json.headers as Record<string, string>;
	expect(headers['x-forwarded-uri']).toBe(`/webhook/${WEBHOOK_ID}/callback?token=***&source=proxy`);
	expect(headers.referer).toBe(`${server.baseUrl}/webhook/${WEBHOOK_ID}/callback?token=***&source=proxy`);
	expect(everyString(server.executions).filter((text) => /token=k3y-6c|^k3y-6c$/.test(text))).toEqual([]);
});

test('the same body carrying both secrets (plain, URL-encoded, base64), cold then warm: masked both times', async () => {
	const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
	const server = await trigger({});
	const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
	// A complete result without id: nothing is read back and no repeat is recognised, so both calls start the workflow.
	const { id: _id, ...complete } = imageResult();
	const body = {
		...complete,
		description: `key ${ACCESS_TOKEN}, secret ${CALLBACK_SECRET}`,
		meta: {
			url: `https://x.test/?a=${encodeURIComponent(ACCESS_TOKEN)}&b=${encodeURIComponent(CALLBACK_SECRET)}`,
			b64: [base64(ACCESS_TOKEN), base64(CALLBACK_SECRET)],
		},
	};
	reads.mockClear();
	const cold = await postCallback(server.webhookUrl, body, { query: { token: CALLBACK_SECRET } });
	expect(reads).toHaveBeenCalledTimes(1);
	const warm = await postCallback(server.webhookUrl, body, { query: { token: CALLBACK_SECRET } });
	// The warm call did not read the credential.
	expect(reads).toHaveBeenCalledTimes(1);
	reads.mockRestore();
	expect([cold.status, warm.status]).toEqual([200, 200]);
	expect(server.executions).toHaveLength(2);
	expect(server.executions[1][0].json.description).toBe('key ***, secret ***');
	expect(findLeaks(outputs(server), SECRETS)).toEqual([]);
});
