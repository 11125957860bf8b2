/**
 * The retry rules as a workflow sees them: the real engine, our node, and a scripted local server that
 * answers what the mock service never does (500, 503 without Retry-After, a long Retry-After, a closed
 * port). Counts the requests the server saw, so "not sent twice" is checked where it matters.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { limiters, serviceKey } from '@package/nodes/ContentModeration/limiter/registry';
import { createApiClient } from '@package/nodes/ContentModeration/transport/client';
import { DEFAULT_RETRY_SETTINGS } from '@package/nodes/ContentModeration/retry/policy';

import { moderationNode, runWorkflow, type NodeOptions } from '@test/helpers/engine';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '@test/helpers/scripted-server';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const RESULT = { id: 'img-1', isSafe: true, hash: 'abc' };
const moderate: INodeParameters = {
	resource: 'image',
	operation: 'moderate',
	inputType: 'url',
	imageUrl: 'https://img.test/cat.jpg',
	mode: 'immediate',
};
const getImage: INodeParameters = { resource: 'image', operation: 'get', imageId: 'img-1' };

let server: ScriptedServer | undefined;

afterEach(async () => {
	await server?.stop();
	server = undefined;
});

async function run(
	replies: ScriptedReply[],
	parameters: INodeParameters,
	options: NodeOptions = {},
	items = [{ json: {} }],
) {
	server = await startScriptedServer((_req, i) => replies[Math.min(i, replies.length - 1)]);
	return await runWorkflow({
		nodes: [moderationNode(parameters, options)],
		credentials: { contentModerationApi: { baseUrl: server.url, accessToken: 'secret-token' } },
		items,
	});
}

const error = (status: number, headers?: Record<string, string>): ScriptedReply => ({
	status,
	body: { error: { status, code: 'x', message: `failure ${status}` } },
	headers,
});

describe('POST /image is sent again only where the service cannot have acted', () => {
	it.each([
		['500', error(500)],
		['502', error(502)],
	])('%s: one request, then a clear error', async (_label, reply) => {
		const result = await run([reply, { status: 200, body: RESULT }], moderate);
		expect(result.status).toBe('error');
		expect(server!.requests).toHaveLength(1);
		expect(result.error?.message).toContain(`answered ${reply.status}`);
		expect(result.error?.description).toContain('Not sent again: a POST is retried only');
	});

	it('503 with or without Retry-After and 429: sent again (refused, not acted on), then succeeds with the same body', async () => {
		const result = await run(
			[error(503, { 'retry-after': '0' }), error(429, { 'retry-after': '0' }), error(503), { status: 200, body: RESULT }],
			moderate,
		);
		expect(result.status).toBe('success');
		expect(result.outputOf('Content Moderation')[0].json).toEqual(RESULT);
		expect(server!.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
		expect(new Set(server!.requests.map((r) => JSON.stringify(r.body))).size).toBe(1);
		expect(server!.requests[3].headers.authorization).toBe('Bearer secret-token');
	});

	it('Max Retries bounds the tries, and the error says how many were made', async () => {
		const result = await run([error(429, { 'retry-after': '0' })], {
			...moderate,
			options: { maxRetries: 2 },
		});
		expect(result.status).toBe('error');
		expect(server!.requests).toHaveLength(3);
		expect(result.error?.description).toContain('Gave up after 3 tries');
		expect(JSON.stringify(result.error)).not.toContain('secret-token');
	});

	it('a Retry-After longer than the 30 s cap fails at once instead of waiting', async () => {
		const started = Date.now();
		const result = await run([error(429, { 'retry-after': '120' })], moderate);
		expect(result.status).toBe('error');
		expect(server!.requests).toHaveLength(1);
		expect(result.error?.description).toContain('asked to wait 120 s');
		expect(Date.now() - started).toBeLessThan(5_000);
	});

	it('a refused connection is tried again (nothing reached the service)', async () => {
		// A port that was just free: connecting to it is refused.
		const probe = createServer();
		await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
		const { port } = probe.address() as AddressInfo;
		await new Promise<void>((resolve) => probe.close(() => resolve()));
		const result = await runWorkflow({
			nodes: [moderationNode({ ...moderate, options: { maxRetries: 1 } })],
			credentials: { contentModerationApi: { baseUrl: `http://127.0.0.1:${port}`, accessToken: 'secret-token' } },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`Could not reach the Content Moderation Service at http://127.0.0.1:${port}`);
		expect(result.error?.description).toContain('ECONNREFUSED');
		expect(result.error?.description).toContain('Gave up after 2 tries');
	});
});

describe('GET is also retried on 5xx', () => {
	it('502 then 500 then 200: succeeds after two retries', async () => {
		const result = await run([error(502), error(500), { status: 200, body: RESULT }], getImage);
		expect(result.status).toBe('success');
		expect(result.outputOf('Content Moderation')[0].json).toEqual(RESULT);
		expect(server!.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /image/img-1',
			'GET /image/img-1',
			'GET /image/img-1',
		]);
	});

	it('404 is not retried', async () => {
		const result = await run([error(404), { status: 200, body: RESULT }], getImage);
		expect(result.status).toBe('error');
		expect(server!.requests).toHaveLength(1);
	});
});

describe('with On Error "Continue"', () => {
	it('an item that exhausts its retries becomes an error item; the others succeed, in order', async () => {
		server = await startScriptedServer((req) =>
			String((req.body as { image?: string }).image).includes('bad')
				? error(429, { 'retry-after': '0' })
				: { status: 200, body: { ...RESULT, id: String((req.body as { image: string }).image) } },
		);
		const urls = ['https://img.test/1.jpg', 'https://img.test/bad.jpg', 'https://img.test/3.jpg'];
		const result = await runWorkflow({
			nodes: [
				moderationNode(
					{ ...moderate, imageUrl: '={{ $json.url }}', options: { maxRetries: 1, concurrency: 3 } },
					{ onError: 'continueRegularOutput' },
				),
			],
			credentials: { contentModerationApi: { baseUrl: server.url, accessToken: 'secret-token' } },
			items: urls.map((url) => ({ json: { url } })),
		});
		expect(result.status).toBe('success');
		const out = result.outputOf('Content Moderation');
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[0].json.id).toBe(urls[0]);
		expect(out[2].json.id).toBe(urls[2]);
		expect(JSON.stringify(out[1].json)).toContain('429');
		expect(server.requests.filter((r) => String((r.body as { image: string }).image).includes('bad'))).toHaveLength(2);
	});
});

describe('a lazy body is read only once its request may go out (place and bytes)', () => {
	const BASE = 'http://127.0.0.1:1';
	const sent: unknown[] = [];
	const ctx = {
		getNode: () => ({ name: 'Content Moderation' }),
		getCredentials: async () => ({ baseUrl: BASE, accessToken: 't' }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: { body: unknown }) => (sent.push(options.body), { statusCode: 200, body: {} }),
		},
	} as unknown as IExecuteFunctions;
	const post = (client: ReturnType<typeof createApiClient>, read: () => Promise<IDataObject>) =>
		client.request({ method: 'POST', path: '/image', body: { bodyBytes: 1024 * 1024, read } });
	beforeEach(() => {
		resetProcessState();
		sent.length = 0;
	});

	it('waits for room in the byte budget before reading, and holds the bytes until answered', async () => {
		const full = await limiters.limiterFor(serviceKey(BASE, 't')).openShare({ adaptive: true, cap: 10 }).acquire(limiters.bytes.maxBytes);
		let read = false;
		const request = post(createApiClient(ctx, { retry: DEFAULT_RETRY_SETTINGS }), async () => ((read = true), { image: 'x' }));
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(read).toBe(false);
		full.release({ kind: 'neutral' });
		await request;
		expect([read, sent]).toEqual([true, [{ image: 'x' }]]);
		expect(limiters.bytes.bytesInFlight).toBe(0);
	});

	it('a failed read gives its place and room back at once', async () => {
		const failing = post(createApiClient(ctx, { retry: DEFAULT_RETRY_SETTINGS }), async () => Promise.reject(new NodeOperationError(ctx.getNode(), 'unreadable')));
		await expect(failing).rejects.toThrow('unreadable');
		expect([limiters.bytes.bytesInFlight, sent]).toEqual([0, []]);
		expect(limiters.limiterFor(serviceKey(BASE, 't')).snapshot().inFlight).toBe(0);
	});

	it.each(['ENOENT', 'ECONNREFUSED'])('a binary store failing with %s: read once, nothing sent, an input error naming the file', async (code) => {
		let reads = 0;
		const storeError = Object.assign(new Error(`${code}: /data/binary/abc`), { code });
		const failing = post(createApiClient(ctx, { retry: DEFAULT_RETRY_SETTINGS }), async () => ((reads += 1), Promise.reject(storeError)));
		await expect(failing).rejects.toThrow(NodeOperationError);
		await expect(failing).rejects.toMatchObject({ message: 'Could not read the image to send', description: expect.stringContaining(code) });
		expect([reads, sent, limiters.bytes.bytesInFlight]).toEqual([1, [], 0]);
	});

	it('Fixed Concurrency takes no room: its number of requests bounds its bodies', async () => {
		limiters.bytes.take(limiters.bytes.maxBytes)();
		const hold = limiters.bytes.take(limiters.bytes.maxBytes);
		await post(createApiClient(ctx, { retry: DEFAULT_RETRY_SETTINGS, limiter: { adaptive: false, cap: 5 } }), async () => ({ image: 'x' }));
		expect(sent).toHaveLength(1);
		hold();
	});
});
