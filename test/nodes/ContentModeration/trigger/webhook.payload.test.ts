/**
 * The trigger's item (webhook.ts, completed by inbound/readBack.ts completeResult) through n8n-core's real
 * WebhookContext, real HTTP requests, and the mock service for the full-result read: what a callback item
 * holds, when the result is read back, and the URL the node reports.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { call } from '@dev/mock/client';
import { mockImageUrl, REVIEW_IMAGE_URL, SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { CALLBACK_TOKEN, expectReceivedAt, useTriggerCallbacks } from '@test/helpers/triggerCallbacks';
import { imageResult } from '@test/helpers/callbackBodies';
import { startScriptedServer } from '@test/helpers/scripted-server';
import { postCallback, startTriggerServer, TEST_CALLBACK_SECRET, WEBHOOK_ID } from '@test/helpers/webhook-server';

const callbacks = useTriggerCallbacks();
const { trigger, moderate, imageReads } = callbacks;
let mock: MockService;
beforeAll(() => {
	mock = callbacks.mock;
});

/** Waits until the mock has the result of `id`. */
async function moderatedResult(id: string): Promise<void> {
	for (let tries = 0; tries < 500; tries++) {
		if (typeof (await call(mock.url, 'GET', `/image/${id}`, { token: mock.token })).body.isSafe === 'boolean') return;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error(`moderation ${id} never finished`);
}

describe('the item a callback starts', () => {
	test('a full result starts one execution with the result and receivedAt, without a read', async () => {
		const server = await trigger({ events: 'all' });
		const result = await moderate(UNSAFE_IMAGE_URL);
		mock.reset();
		const before = Date.now();

		const answer = await postCallback(server.webhookUrl, result);

		expect(answer).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: result.id } });
		expect(server.executions).toHaveLength(1);
		expect(server.executions[0]).toHaveLength(1);
		const { receivedAt, ...rest } = server.executions[0][0].json;
		expect(rest).toEqual({ ...result, event: 'moderation.completed' });
		expectReceivedAt(receivedAt, before);
		expect(mock.requests).toHaveLength(0);
	});

	test('an id-only body is completed with GET /image/{id} using the credential', async () => {
		const server = await trigger({ events: 'all' });
		const result = await moderate(REVIEW_IMAGE_URL);
		mock.reset();

		const answer = await postCallback(server.webhookUrl, { id: result.id });

		expect(answer).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: result.id } });
		const reads = imageReads(result.id);
		expect(reads).toHaveLength(1);
		expect(reads[0].status).toBe(200);
		expect(reads[0].headers.authorization).toBe(`Bearer ${mock.token}`);
		const { receivedAt, ...rest } = server.executions[0][0].json;
		expect(rest).toEqual({ ...result, event: 'moderation.completed' });
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

	test('a read answered 404 (not stored yet) starts nothing (503); the finished result delivered next starts with its verdict', async () => {
		for (const events of ['all', 'safe']) {
			const flagged = { isSafe: false, suggestedActions: { reject: true, review: false } };
			const id = `job-404-${events}`;
			const service = await startScriptedServer((_request, index) =>
				index === 0 ? { status: 404, body: { message: 'not found' } } : { status: 200, body: imageResult(id, flagged) },
			);
			const credentials = { baseUrl: service.url, accessToken: 'tok-404-read', callbackSecret: TEST_CALLBACK_SECRET };
			const server = await startTriggerServer({ parameters: { events }, credentials, token: TEST_CALLBACK_SECRET });
			callbacks.servers.push(server);
			try {
				// An image's data (a description): read from GET /image only, whose 404 means "not stored yet".
				const data = { id, isSafe: true, status: 'processing', description: 'a cat' };
				const first = await postCallback(server.webhookUrl, { event: 'moderation.completed', data });
				expect(first.status).toBe(503);
				expect(JSON.stringify(first.body)).toMatch(/HTTP 404.*try this callback again/);
				expect(server.executions).toHaveLength(0);
				const second = await postCallback(server.webhookUrl, { event: 'moderation.completed', data: imageResult(id, flagged) });
				expect(second.status).toBe(200);
				if (events === 'safe') expect((second.body as IDataObject).ignored).toBe('flagged');
				else expect(server.executions.map((items) => items[0].json.isSafe)).toEqual([false]);
				expect(server.executions).toHaveLength(events === 'safe' ? 0 : 1);
			} finally {
				await service.stop();
			}
		}
	});

	test('a read refused (403) starts nothing and is not remembered (503); a delivery once the read works starts with the verdict', async () => {
		const flagged = { isSafe: false, suggestedActions: { reject: true, review: false } };
		const service = await startScriptedServer((_request, index) =>
			index === 0 ? { status: 403, body: { message: 'forbidden' } } : { status: 200, body: imageResult('job-403', flagged) },
		);
		const credentials = { baseUrl: service.url, accessToken: 'tok-403-read', callbackSecret: TEST_CALLBACK_SECRET };
		const server = await startTriggerServer({ parameters: { events: 'flagged' }, credentials, token: TEST_CALLBACK_SECRET });
		callbacks.servers.push(server);
		try {
			const data = { id: 'job-403', isSafe: true, status: 'processing', summary: 'kept', suggestedActions: {} };
			const first = await postCallback(server.webhookUrl, { event: 'moderation.completed', data });
			expect(first.status).toBe(503);
			expect(JSON.stringify(first.body)).toContain('Reading moderation job-403 failed (HTTP 403); try this callback again');
			expect(server.executions).toHaveLength(0);

			const again = await postCallback(server.webhookUrl, { event: 'moderation.completed', data });
			expect(again).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: 'job-403' } });
			expect(service.requests).toHaveLength(2);
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0][0].json).toMatchObject({ id: 'job-403', isSafe: false, suggestedActions: { reject: true, review: false } });
			expect(JSON.stringify(server.executions)).not.toContain('tok-403-read');
		} finally {
			await service.stop();
		}
	});

	test('a result still processing starts nothing and is answered 503; delivered again once done, it starts with the verdict', async () => {
		const server = await trigger({ events: 'all' });
		const image = mockImageUrl({}, `trigger-held-${Date.now()}`);
		const release = mock.holdResultsOf((subject) => subject === image);
		try {
			const submitted = await call(mock.url, 'POST', '/image', { token: mock.token, json: { image, options: { defer: true } } });
			const id = submitted.body.id as string;

			const started = Date.now();
			const answer = await postCallback(server.webhookUrl, { event: 'moderation.completed', data: { id } });
			expect(answer.status).toBe(503);
			expect(JSON.stringify(answer.body)).toMatch(new RegExp(`not finished moderation ${id}.*try this callback again`));
			// Read again within the budget, all inside a sender's 5 s.
			expect(imageReads(id).length).toBeGreaterThan(1);
			expect(Date.now() - started).toBeLessThan(5_000);
			expect(server.executions).toHaveLength(0);

			release();
			await moderatedResult(id);
			const again = await postCallback(server.webhookUrl, { event: 'moderation.completed', data: { id } });
			expect(again).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id } });
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0][0].json).toMatchObject({ id, isSafe: true, event: 'moderation.completed' });
			expect(server.executions[0][0].json.error).toBeUndefined();
		} finally {
			release();
		}
	});

	test('a service that keeps failing the read is retried once, briefly: answered 503 fast, nothing recorded, the retry starts it', async () => {
		const server = await trigger({ events: 'all' });
		const result = await moderate(SAFE_IMAGE_URL);
		mock.reset();
		mock.configure({ faultRate: 1, retryAfterSeconds: 1 });
		try {
			const started = Date.now();
			const answer = await postCallback(server.webhookUrl, { id: result.id });
			const elapsed = Date.now() - started;

			// A read that says nothing of the result is not a completion: the sender is asked to come again.
			expect(answer.status).toBe(503);
			expect(JSON.stringify(answer.body)).toContain('(HTTP 503)');
			// One retry, not the action node's five (which would take 5+ s of Retry-After waits).
			expect(imageReads(result.id)).toHaveLength(2);
			expect(imageReads(result.id).every((read) => read.status === 503)).toBe(true);
			expect(elapsed).toBeLessThan(5_000);
			expect(server.executions).toHaveLength(0);
		} finally {
			mock.configure({ faultRate: 0, retryAfterSeconds: 1 });
		}
		const again = await postCallback(server.webhookUrl, { id: result.id });
		expect(again.status).toBe(200);
		expect(server.executions[0][0].json).toMatchObject({ id: result.id, isSafe: result.isSafe });
		expect(server.executions[0][0].json.error).toBeUndefined();
	});

	test.each([
		['Fetch Full Result off', { events: 'all', fetchFullResult: false }, true, 'Fetch Full Result is off or no credential is selected'],
		['no credential, Fetch Full Result on (the test URL)', { events: 'all', fetchFullResult: true }, false, 'Fetch Full Result is off or no credential is selected'],
	])('%s: an id-only body cannot be completed: 422, nothing read, nothing started', async (_name, parameters, withCredential, why) => {
		const server = await trigger(parameters, withCredential);
		const result = await moderate(SAFE_IMAGE_URL);
		mock.reset();

		const answer = await postCallback(server.webhookUrl, { id: result.id });

		expect(answer.status).toBe(422);
		expect(JSON.stringify(answer.body)).toContain(why);
		expect(JSON.stringify(answer.body)).not.toContain('try this callback again');
		expect(mock.requests).toHaveLength(0);
		expect(server.executions).toHaveLength(0);
		// The complete result, delivered again, starts the workflow: the refusal was not remembered.
		const again = await postCallback(server.webhookUrl, result);
		expect(again.status).toBe(200);
		expect(server.executions).toHaveLength(1);
		expect(mock.requests).toHaveLength(0);
	});

	test('the node reports the production URL <base>/webhook/<webhookId>/callback', async () => {
		const server = await trigger({ events: 'all' });
		await postCallback(server.webhookUrl, await moderate(SAFE_IMAGE_URL));
		expect(server.reportedUrl).toBe(`${server.baseUrl}/webhook/${WEBHOOK_ID}/callback`);
		expect(server.reportedUrl).toBe(server.webhookUrl.split('?')[0]);
	});

	test('Include Headers and Query adds them, with the token and authorization redacted', async () => {
		const server = await trigger({ events: 'all', options: { includeRequest: true } }, true, CALLBACK_TOKEN);
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
