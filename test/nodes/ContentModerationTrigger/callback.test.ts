/**
 * The trigger's webhook() through n8n-core's real WebhookContext, real HTTP requests, and the mock
 * service for the full-result read (see webhook-server.ts for what is real).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { REVIEW_IMAGE_URL, SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { startMockService, type MockService } from '../../../dev/mock/server';
import { limiters, serviceKey } from '../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/registry';
import {
	N8N_PLACEHOLDERS,
	postCallback,
	startTriggerServer,
	WEBHOOK_ID,
	type TriggerServer,
} from '../../helpers/webhook-server';

const CALLBACK_TOKEN = 'cb-secret-7f3a';

let mock: MockService;
const servers: TriggerServer[] = [];

beforeAll(async () => {
	mock = await startMockService({ processMs: 20 });
});

afterAll(async () => {
	await Promise.all(servers.map(async (server) => await server.stop()));
	await mock.stop();
});

beforeEach(() => mock.reset());

async function trigger(parameters: INodeParameters, withCredential = true): Promise<TriggerServer> {
	const server = await startTriggerServer({
		parameters,
		credentials: withCredential ? { baseUrl: mock.url, accessToken: mock.token } : undefined,
	});
	servers.push(server);
	return server;
}

/**
 * A full image result with its id, as a callback carries it: submitted deferred (the immediate answer has
 * no id) and read back once processed; GET /image/{id} gives no id either, so it is added.
 */
async function moderate(imageUrl: string): Promise<IDataObject & { id: string }> {
	const headers = { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' };
	const response = await fetch(`${mock.url}/image`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ image: imageUrl, options: { defer: true } }),
		signal: AbortSignal.timeout(10_000),
	});
	expect(response.status).toBe(200);
	const { id } = (await response.json()) as { id: string };
	expect(typeof id).toBe('string');
	for (;;) {
		const read = await fetch(`${mock.url}/image/${id}`, { headers, signal: AbortSignal.timeout(10_000) });
		const result = (await read.json()) as IDataObject;
		if (typeof result.isSafe === 'boolean') return { ...result, id };
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

const UNKNOWN_ID = '00000000-0000-4000-8000-00000000abcd';

function imageReads(id: string) {
	return mock.requests.filter((r) => r.method === 'GET' && r.path === `/image/${id}`);
}

function expectReceivedAt(value: unknown, before: number) {
	expect(typeof value).toBe('string');
	const time = Date.parse(value as string);
	expect(new Date(time).toISOString()).toBe(value);
	expect(time).toBeGreaterThanOrEqual(before - 1000);
	expect(time).toBeLessThanOrEqual(Date.now() + 1000);
}

describe('payload', () => {
	test('a full result starts one execution with the result and receivedAt, without a read', async () => {
		const server = await trigger({ events: 'all' });
		const result = await moderate(UNSAFE_IMAGE_URL);
		mock.reset();
		const before = Date.now();

		const answer = await postCallback(server.webhookUrl, result);

		expect(answer).toEqual({ status: 200, body: { received: true, id: result.id } });
		expect(server.executions).toHaveLength(1);
		expect(server.executions[0]).toHaveLength(1);
		const { receivedAt, ...rest } = server.executions[0][0].json;
		expect(rest).toEqual(result);
		expectReceivedAt(receivedAt, before);
		expect(mock.requests).toHaveLength(0);
	});

	test('an id-only body is completed with GET /image/{id} using the credential', async () => {
		const server = await trigger({ events: 'all' });
		const result = await moderate(REVIEW_IMAGE_URL);
		mock.reset();

		const answer = await postCallback(server.webhookUrl, { id: result.id });

		expect(answer).toEqual({ status: 200, body: { received: true, id: result.id } });
		const reads = imageReads(result.id);
		expect(reads).toHaveLength(1);
		expect(reads[0].status).toBe(200);
		expect(reads[0].headers.authorization).toBe(`Bearer ${mock.token}`);
		const { receivedAt, ...rest } = server.executions[0][0].json;
		expect(rest).toEqual(result);
		expect(typeof receivedAt).toBe('string');
	});

	test('a body missing some result fields is completed too, the service read winning', async () => {
		const server = await trigger({ events: 'all' });
		const result = await moderate(SAFE_IMAGE_URL);
		mock.reset();

		await postCallback(server.webhookUrl, { id: result.id, isSafe: false, extra: 'kept' });

		expect(imageReads(result.id)).toHaveLength(1);
		const item = server.executions[0][0].json;
		expect(item.isSafe).toBe(true);
		expect(item.extra).toBe('kept');
		expect(item.hash).toBe(result.hash);
	});

	test('a failed read still acknowledges and starts the workflow with the id and an error', async () => {
		const server = await trigger({ events: 'flagged' });

		const answer = await postCallback(server.webhookUrl, { id: UNKNOWN_ID });

		expect(answer).toEqual({ status: 200, body: { received: true, id: UNKNOWN_ID } });
		expect(imageReads(UNKNOWN_ID)).toHaveLength(1);
		expect(imageReads(UNKNOWN_ID)[0].status).toBe(404);
		const item = server.executions[0][0].json;
		expect(item.id).toBe(UNKNOWN_ID);
		expect(item.isSafe).toBeUndefined();
		const error = item.error as IDataObject;
		expect(error.httpCode).toBe('404');
		expect(error.message).toMatch(/answered 404/);
		expect(JSON.stringify(server.executions)).not.toContain(mock.token);
	});

	test('a read of a moderation still processing gives an error that says so', async () => {
		mock.configure({ processMs: 5_000 });
		try {
			const server = await trigger({ events: 'all' });
			const submitted = await fetch(`${mock.url}/image`, {
				method: 'POST',
				headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ image: SAFE_IMAGE_URL, options: { defer: true } }),
				signal: AbortSignal.timeout(10_000),
			});
			const { id } = (await submitted.json()) as { id: string };

			const answer = await postCallback(server.webhookUrl, { id });

			expect(answer.status).toBe(200);
			// The mock answers a moderation still processing 200 {id, status: 'processing'}: readiness is isSafe.
			expect(imageReads(id)[0].status).toBe(200);
			const item = server.executions[0][0].json;
			expect((item.error as IDataObject).message).toMatch(/not finished/);
			expect((item.error as IDataObject).httpCode).toBe('200');
		} finally {
			mock.configure({ processMs: 20 });
		}
	});

	test('a service that keeps failing the read is retried once, briefly: the acknowledgement stays fast', async () => {
		const server = await trigger({ events: 'all' });
		const result = await moderate(SAFE_IMAGE_URL);
		mock.reset();
		mock.configure({ faultRate: 1, retryAfterSeconds: 1 });
		try {
			const started = Date.now();
			const answer = await postCallback(server.webhookUrl, { id: result.id });
			const elapsed = Date.now() - started;

			expect(answer.status).toBe(200);
			// One retry, not the action node's five (which would take 5+ s of Retry-After waits).
			expect(imageReads(result.id)).toHaveLength(2);
			expect(imageReads(result.id).every((read) => read.status === 503)).toBe(true);
			expect(elapsed).toBeLessThan(5_000);
			expect((server.executions[0][0].json.error as IDataObject).httpCode).toBe('503');
		} finally {
			mock.configure({ faultRate: 0, retryAfterSeconds: 1 });
		}
	});

	test.each([
		['Fetch Full Result off', { events: 'all', fetchFullResult: false }, true],
		['no credential, Fetch Full Result on', { events: 'all', fetchFullResult: true }, false],
	])('%s: an id-only body is passed on as received, nothing read', async (_name, parameters, withCredential) => {
		const server = await trigger(parameters, withCredential);
		const result = await moderate(SAFE_IMAGE_URL);
		mock.reset();

		await postCallback(server.webhookUrl, { id: result.id });

		expect(mock.requests).toHaveLength(0);
		const { receivedAt, ...rest } = server.executions[0][0].json;
		expect(rest).toEqual({ id: result.id });
		expect(typeof receivedAt).toBe('string');
	});

	test('the node reports the production URL <base>/webhook/<webhookId>/callback', async () => {
		const server = await trigger({ events: 'all' });
		await postCallback(server.webhookUrl, await moderate(SAFE_IMAGE_URL));
		expect(server.reportedUrl).toBe(`${server.baseUrl}/webhook/${WEBHOOK_ID}/callback`);
		expect(server.reportedUrl).toBe(server.webhookUrl);
	});

	test('Include Headers and Query adds them, with the token and authorization redacted', async () => {
		const server = await trigger({
			events: 'all',
			callbackToken: CALLBACK_TOKEN,
			options: { includeRequest: true },
		});
		const result = await moderate(SAFE_IMAGE_URL);

		await postCallback(server.webhookUrl, result, {
			query: { token: CALLBACK_TOKEN, source: 'mock' },
			headers: {
				'X-Callback-Token': CALLBACK_TOKEN,
				Authorization: 'Bearer caller-secret',
				'X-Request-Id': 'req-1',
			},
		});

		const item = server.executions[0][0].json;
		expect(item.query).toEqual({ token: '[redacted]', source: 'mock' });
		const headers = item.headers as IDataObject;
		expect(headers['x-request-id']).toBe('req-1');
		expect(headers['x-callback-token']).toBe('[redacted]');
		expect(headers.authorization).toBe('[redacted]');
		const dump = JSON.stringify(server.executions);
		expect(dump).not.toContain(CALLBACK_TOKEN);
		expect(dump).not.toContain('caller-secret');
		expect(dump).not.toContain(mock.token);
	});

	test('headers and query are left out by default', async () => {
		const server = await trigger({ events: 'all' });
		await postCallback(server.webhookUrl, await moderate(SAFE_IMAGE_URL), { query: { a: '1' } });
		const item = server.executions[0][0].json;
		expect(item.headers).toBeUndefined();
		expect(item.query).toBeUndefined();
	});
});

describe('events filter', () => {
	// Mock fixtures: SAFE isSafe/no actions; UNSAFE isSafe false + reject; REVIEW isSafe + review.
	const cases: Array<[string, string, boolean]> = [
		['all', SAFE_IMAGE_URL, true],
		['all', UNSAFE_IMAGE_URL, true],
		['all', REVIEW_IMAGE_URL, true],
		['flagged', SAFE_IMAGE_URL, false],
		['flagged', UNSAFE_IMAGE_URL, true],
		['flagged', REVIEW_IMAGE_URL, false],
		['review', SAFE_IMAGE_URL, false],
		['review', UNSAFE_IMAGE_URL, false],
		['review', REVIEW_IMAGE_URL, true],
		['safe', SAFE_IMAGE_URL, true],
		['safe', UNSAFE_IMAGE_URL, false],
		['safe', REVIEW_IMAGE_URL, false],
	];

	test.each(cases)('events %s, image %s: starts %s', async (events, imageUrl, starts) => {
		const server = await trigger({ events });
		const result = await moderate(imageUrl);

		const answer = await postCallback(server.webhookUrl, result);

		expect(answer.status).toBe(200);
		if (starts) {
			expect(answer.body).toEqual({ received: true, id: result.id });
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0][0].json.id).toBe(result.id);
		} else {
			const body = answer.body as IDataObject;
			expect(body.received).toBe(true);
			expect(body.id).toBe(result.id);
			expect(typeof body.ignored).toBe('string');
			expect(server.executions).toHaveLength(0);
			expect(server.calls).toHaveLength(1);
			expect(server.calls[0].items).toBeUndefined();
		}
	});

	test('flagged covers a reject suggestion on a result marked safe', async () => {
		const server = await trigger({ events: 'flagged' });
		const result = await moderate(SAFE_IMAGE_URL);
		const rejected = { ...result, suggestedActions: { reject: true, review: false } };

		await postCallback(server.webhookUrl, rejected);

		expect(server.executions).toHaveLength(1);
	});

	test('an id that cannot be read passes Flagged Only but is held back by Safe Only', async () => {
		const flagged = await trigger({ events: 'flagged' }, false);
		const safe = await trigger({ events: 'safe' }, false);

		const passed = await postCallback(flagged.webhookUrl, { id: 'abc-123' });
		const held = await postCallback(safe.webhookUrl, { id: 'abc-123' });

		expect(passed.body).toEqual({ received: true, id: 'abc-123' });
		expect(flagged.executions).toHaveLength(1);
		expect((held.body as IDataObject).ignored).toMatch(/cannot count as safe/);
		expect(safe.executions).toHaveLength(0);
	});
});

describe('body: bad calls get 400 JSON and start nothing, JSON under any content type is read', () => {
	const cases: Array<[string, string, string | null, RegExp]> = [
		['non-JSON text', 'hello there', 'text/plain', /not JSON/],
		['non-JSON bytes without a content type', 'id=abc', null, /not JSON/],
		['a form body', 'id=abc', 'application/x-www-form-urlencoded', /not JSON/],
		['malformed JSON sent as octet-stream', '{"id": "abc"', 'application/octet-stream', /not JSON/],
		['an empty JSON body', '', 'application/json', /Empty body/],
		['an empty body without a content type', '', null, /Empty body/],
		['a JSON array', '[{"id":"abc"}]', 'application/json', /JSON object/],
		['a JSON string', '"abc"', 'text/plain', /JSON object/],
		['an object with neither an id nor a result field', '{"status":"done"}', 'application/json', /neither an id nor any moderation result field/],
		['an empty id and no result field', '{"id":""}', 'application/json', /neither an id nor any moderation result field/],
		['an empty object', '{}', 'application/json', /neither an id nor any moderation result field/],
	];

	test.each(cases)('%s', async (_name, body, contentType, message) => {
		const server = await trigger({ events: 'all' });

		const answer = await postCallback(server.webhookUrl, body, { contentType });

		expect(answer.status).toBe(400);
		const error = (answer.body as { error: { status: number; message: string } }).error;
		expect(error.status).toBe(400);
		expect(error.message).toMatch(message);
		expect(server.executions).toHaveLength(0);
		expect(mock.requests).toHaveLength(0);
	});

	test.each(['text/plain', 'application/vnd.moderation+json', 'application/octet-stream'])(
		'a JSON body sent as %s is accepted',
		async (contentType) => {
			const server = await trigger({ events: 'all' });
			const result = await moderate(SAFE_IMAGE_URL);

			const answer = await postCallback(server.webhookUrl, JSON.stringify(result), { contentType });

			expect(answer).toEqual({ status: 200, body: { received: true, id: result.id } });
			expect(server.executions).toHaveLength(1);
			const { receivedAt, ...rest } = server.executions[0][0].json;
			expect(rest).toEqual(result);
			expect(receivedAt).toBeDefined();
		},
	);
});

describe('callbacks without an id (the spec\'s image result has none) start a workflow', () => {
	test('a spec-shaped result without id: id null, a warning, no read, one execution', async () => {
		const server = await trigger({ events: 'all' });
		const { id: _id, ...specShaped } = await moderate(UNSAFE_IMAGE_URL);
		mock.reset();

		const answer = await postCallback(server.webhookUrl, specShaped);

		expect(answer).toEqual({ status: 200, body: { received: true, id: null } });
		expect(server.executions).toHaveLength(1);
		const { receivedAt, warning, ...rest } = server.executions[0][0].json;
		expect(rest).toEqual({ ...specShaped, id: null });
		expect(warning).toBe(
			'The callback carries no id, so it cannot be matched to its submission. Its fields are as the service sent them.',
		);
		expect(typeof receivedAt).toBe('string');
		expect(mock.requests).toHaveLength(0);
	});

	test('a partial result without id says the missing fields could not be read, and filters as unknown', async () => {
		const all = await trigger({ events: 'all' });
		const safe = await trigger({ events: 'safe' });

		const answer = await postCallback(all.webhookUrl, { isSafe: true, meta: { orderId: 'A-17' } });
		const held = await postCallback(safe.webhookUrl, { meta: { orderId: 'A-17' } });

		expect(answer).toEqual({ status: 200, body: { received: true, id: null } });
		const item = all.executions[0][0].json;
		expect(item).toMatchObject({ id: null, isSafe: true, meta: { orderId: 'A-17' } });
		expect(item.warning).toMatch(/no id, so it cannot be matched .* could not be read with GET \/image\/\{id\}/);
		expect((held.body as IDataObject).ignored).toMatch(/cannot count as safe/);
		expect(safe.executions).toHaveLength(0);
		expect(mock.requests).toHaveLength(0);
	});

	test('an unusable id (null, empty, an object) is reported as such', async () => {
		const server = await trigger({ events: 'all' }, false);
		await postCallback(server.webhookUrl, { id: null, isSafe: false });
		await postCallback(server.webhookUrl, { id: '', isSafe: false });
		await postCallback(server.webhookUrl, { id: { v: 1 }, isSafe: false });
		expect(server.executions.map((run) => [run[0].json.id, run[0].json.warning])).toEqual([
			[null, expect.stringMatching(/^The callback's id is not usable \(null\)/)],
			[null, expect.stringMatching(/^The callback's id is not usable \(a string\)/)],
			[null, expect.stringMatching(/^The callback's id is not usable \(a object\)/)],
		]);
	});

	test('a numeric id is taken as its text', async () => {
		const server = await trigger({ events: 'all' }, false);
		const answer = await postCallback(server.webhookUrl, { id: 12345, isSafe: true });
		expect(answer).toEqual({ status: 200, body: { received: true, id: '12345' } });
		expect(server.executions[0][0].json.warning).toBeUndefined();
	});
});

describe('callback secret of the credential', () => {
	const SECRET = 'cred-cb-secret-91d4';

	async function secured(parameters: INodeParameters = {}): Promise<TriggerServer> {
		const server = await startTriggerServer({
			parameters: { events: 'all', ...parameters },
			credentials: { baseUrl: mock.url, accessToken: mock.token, callbackSecret: SECRET },
		});
		servers.push(server);
		return server;
	}

	test('with no Callback Token typed, only calls carrying the credential secret start a workflow', async () => {
		const server = await secured();
		const result = await moderate(SAFE_IMAGE_URL);

		const none = await postCallback(server.webhookUrl, result);
		const wrong = await postCallback(server.webhookUrl, result, { query: { token: 'wrong' } });
		const right = await postCallback(server.webhookUrl, result, { query: { token: SECRET } });
		const header = await postCallback(server.webhookUrl, result, { headers: { 'X-Callback-Token': SECRET } });

		expect([none.status, wrong.status, right.status, header.status]).toEqual([401, 401, 200, 200]);
		expect(server.executions).toHaveLength(2);
		expect(JSON.stringify([none.body, wrong.body, server.executions])).not.toContain(SECRET);
	});

	test('a saved Callback Token keeps working next to the credential secret; other tokens do not', async () => {
		const server = await secured({ callbackToken: CALLBACK_TOKEN });
		const result = await moderate(SAFE_IMAGE_URL);

		const old = await postCallback(server.webhookUrl, result, { query: { token: CALLBACK_TOKEN } });
		const fromCredential = await postCallback(server.webhookUrl, result, { query: { token: SECRET } });
		const wrong = await postCallback(server.webhookUrl, result, { query: { token: 'cb-secret-0000' } });

		expect([old.status, fromCredential.status, wrong.status]).toEqual([200, 200, 401]);
	});

	test('a credential that cannot be read: 500, nothing starts (its secret cannot be checked)', async () => {
		const server = await startTriggerServer({ parameters: { events: 'all' }, unreadableCredential: true });
		servers.push(server);
		const answer = await postCallback(server.webhookUrl, await moderate(SAFE_IMAGE_URL), { query: { token: SECRET } });
		expect(answer).toEqual({
			status: 500,
			body: { received: false, error: { status: 500, message: expect.stringMatching(/credential of this trigger could not be read/) } },
		});
		expect(server.executions).toHaveLength(0);
	});

	test('a credential without a Callback Secret checks nothing (as before)', async () => {
		const server = await trigger({ events: 'all' });
		const answer = await postCallback(server.webhookUrl, await moderate(SAFE_IMAGE_URL));
		expect(answer.status).toBe(200);
	});
});

describe('callback token', () => {
	let server: TriggerServer;
	let result: IDataObject & { id: string };

	beforeAll(async () => {
		server = await trigger({ events: 'all', callbackToken: CALLBACK_TOKEN });
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
		const answer = await postCallback(server.webhookUrl, result, init);
		expect(answer).toEqual({ status: 200, body: { received: true, id: result.id } });
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

describe("the trigger's reads share the process's limiter of the service", () => {
	test('Fetch Full Result reads through the limiter the action node uses for the same base URL and token', async () => {
		const server = await trigger({ events: 'all' });
		const result = await moderate(SAFE_IMAGE_URL);
		mock.reset();
		limiters.clear();
		const key = serviceKey(mock.url, mock.token);

		await postCallback(server.webhookUrl, { id: result.id });

		expect(imageReads(result.id)).toHaveLength(1);
		// The read made the service's limiter in the one registry, under the action node's key, and nothing else.
		expect(limiters.size).toBe(1);
		const limiter = limiters.limiterFor(key);
		expect(limiters.size).toBe(1);
		expect(limiter.snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
	});
});
