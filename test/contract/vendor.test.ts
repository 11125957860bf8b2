/**
 * The contract: what the vendor's documents state (vendor-facts.ts), run against the mock over HTTP, so that
 * the mock cannot drift from them again. Then the requests the vendor's SDK makes, reproduced here (method,
 * path, body keys, headers), all seven of which must succeed against the mock.
 *
 * Only HTTP and the mock's long-standing API (`startMockService`, `requests`, `whenIdle`) are used, so this
 * file also runs against an older mock and shows where it differs.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startMockService, type MockService } from '../../dev/mock/server';
import { shapeProblems } from './shape';
import {
	DEFERRED_ANSWER,
	ENDPOINTS,
	IMAGE_RESULT,
	METADATA_KEYS,
	QUEUE_ADD_ANSWER,
	QUEUE_ITEM,
	QUEUE_STATUSES_API,
	QUEUE_STATUSES_SDK,
	REQUEST_RULES,
	SDK_TEXT_RESULT,
	sdkHeaders,
	TEXT_RESULT,
	WEBHOOK_BODY,
	WEBHOOK_EVENTS,
	type Shape,
} from './vendor-facts';

const SECRET_KEY = 'sk-contract-5d1f';
const QUEUE = 'contract-queue';

interface Received {
	method: string;
	headers: IncomingHttpHeaders;
	body: any;
}

let mock: MockService;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
	mock = await startMockService({ processMs: 150, token: SECRET_KEY, callbackBackoffMs: 20 });
	receiver = createServer((req, res) => {
		let text = '';
		req.on('data', (chunk: Buffer) => (text += chunk.toString()));
		req.on('end', () => {
			let body: unknown = text;
			try {
				body = JSON.parse(text);
			} catch {
				// kept as text: the check on its shape says what is wrong
			}
			received.push({ method: req.method ?? '', headers: req.headers, body });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/contentmod`;
});

afterAll(async () => {
	await mock?.stop();
	receiver?.closeAllConnections();
	await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

/** One request as the vendor's documents show it: bearer secret key, JSON. */
async function request(method: string, path: string, body?: unknown, secretKey = SECRET_KEY) {
	const response = await fetch(`${mock.url}${path}`, {
		method,
		headers: body === undefined ? { Authorization: `Bearer ${secretKey}` } : sdkHeaders(secretKey),
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let json: any;
	try {
		json = text === '' ? undefined : JSON.parse(text);
	} catch {
		json = text;
	}
	return { status: response.status, body: json };
}

const idle = () => mock.whenIdle(5_000);

/** Waits until the receiver holds a body matching `pick`. */
async function receivedBody(pick: (body: any) => boolean, timeoutMs = 5_000): Promise<Received> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = received.find((r) => pick(r.body));
		if (found) return found;
		if (Date.now() > deadline) throw new Error(`no matching callback arrived; received: ${JSON.stringify(received).slice(0, 500)}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

function expectShape(value: unknown, shape: Shape): void {
	expect(shapeProblems(value, shape)).toEqual([]);
}

/** Ids the path placeholders of ENDPOINTS stand for, each obtained the documented way. */
async function pathIds(): Promise<Record<string, string>> {
	const text = await request('POST', '/text', { text: 'an id for GET /text/{id}' });
	const image = await request('POST', '/image', { image: 'https://img.test/cat.jpg', options: { defer: true } });
	const item = await request('POST', `/queues/${QUEUE}`, { type: 'text', content: 'an item for GET' });
	await idle();
	return { text: text.body?.id, image: image.body?.id, queueItem: item.body?.id, queue: QUEUE };
}

describe('the documented endpoints answer as documented', () => {
	let ids: Record<string, string>;
	beforeAll(async () => {
		ids = await pathIds();
	});

	it.each(ENDPOINTS.map((row) => ({ ...row, name: `${row.method} ${row.path}: ${row.fact} (${row.source})` })))('$name', async (row) => {
		const path = row.path.replace(/\{(\w+)\}/g, (_all, name: string) => ids[name]);
		const body = row.body === undefined ? undefined : JSON.parse(JSON.stringify(row.body).replace('<callbackUrl>', receiverUrl));
		const response = await request(row.method, path, body);
		expect({ status: response.status, body: response.body }).toMatchObject({ status: row.status });
		expectShape(response.body, row.response);
	});

	it.each(REQUEST_RULES.map((rule) => ({ ...rule, name: `${rule.fact} (${rule.source})` })))('$name', async (rule) => {
		const response = await request('POST', rule.path.replace('{queue}', QUEUE), rule.body);
		if (rule.refused) expect(response.status).toBe(400);
		else expect(response.status).toBe(200);
	});

	it('a request with a wrong secret key is 401 (SDK: "Unauthorized: Invalid API Key")', async () => {
		expect((await request('POST', '/text', { text: 'hello' }, 'sk-wrong')).status).toBe(401);
		expect((await request('GET', `/text/${ids.text}`, undefined, 'sk-wrong')).status).toBe(401);
	});

	it('ids are UUIDs (every sample of the API reference)', () => {
		for (const id of [ids.text, ids.image, ids.queueItem]) expectShape({ id }, { id: 'uuid' });
	});
});

describe('callbacks are { event, data } (SDK WebhookBody)', () => {
	it('a deferred text with a callbackUrl: moderation.completed with the text result, as GET /text/{id} reads it', async () => {
		const answer = await request('POST', '/text', { text: 'call me back', options: { callbackUrl: receiverUrl, meta: { n: 1 } } });
		expectShape(answer.body, DEFERRED_ANSWER);
		const callback = await receivedBody((body) => body?.data?.id === answer.body.id);
		expect(callback.method).toBe('POST');
		expect(String(callback.headers['content-type'])).toMatch(/^application\/json/);
		expectShape(callback.body, WEBHOOK_BODY);
		expect(callback.body.event).toBe(WEBHOOK_EVENTS.moderationCompleted);
		expectShape(callback.body.data, TEXT_RESULT);
		await idle();
		expect((await request('GET', `/text/${answer.body.id}`)).body).toEqual(callback.body.data);
	});

	it('a deferred image with a callbackUrl: moderation.completed with the image result and its id', async () => {
		const answer = await request('POST', '/image', { image: 'https://img.test/dog.jpg', options: { callbackUrl: receiverUrl } });
		expectShape(answer.body, DEFERRED_ANSWER);
		const callback = await receivedBody((body) => body?.data?.id === answer.body.id);
		expect(callback.body.event).toBe(WEBHOOK_EVENTS.moderationCompleted);
		expectShape(callback.body.data, { ...IMAGE_RESULT, id: 'uuid' });
	});
});

describe('review queues (API reference queues/*, SDK QueueItemResponse)', () => {
	/** Every item status the mock answered in this block. */
	const seen = new Set<unknown>();

	async function pendingItem(body: object): Promise<any> {
		const added = await request('POST', `/queues/${QUEUE}`, body);
		expectShape(added.body, QUEUE_ADD_ANSWER);
		const early = await request('GET', `/queues/${QUEUE}/items/${added.body.id}`);
		seen.add(early.body?.status);
		await idle();
		const item = (await request('GET', `/queues/${QUEUE}/items/${added.body.id}`)).body;
		seen.add(item?.status);
		return item;
	}

	it('a text item is moderated automatically and then waits for a person: pending, the full text result, not accepted', async () => {
		const item = await pendingItem({ type: 'text', content: 'please look at this', meta: { post: 4 } });
		expectShape(item, QUEUE_ITEM);
		expect(item).toMatchObject({ status: 'pending', accepted: false, type: 'text', content: 'please look at this' });
		expectShape(item.moderation, TEXT_RESULT);
	});

	it('an item whose moderation fails reads status error (provoked in the mock with mock_fail)', async () => {
		const item = await pendingItem({ type: 'text', content: 'mock_fail' });
		expectShape(item, QUEUE_ITEM);
		expect(item.status).toBe('error');
	});

	it.each(['accepted', 'rejected'] as const)(
		"a person's decision (%s) is announced to the account's webhook as queue.review.completed with the queue item",
		async (decision) => {
			// The account's webhook URL and the person are the vendor's dashboard; the mock stands them in over HTTP.
			expect((await request('POST', '/__mock/settings', { webhookUrl: receiverUrl })).status).toBe(200);
			const item = await pendingItem({ type: 'text', content: `decide me ${decision}` });
			const decided = await request('POST', `/__mock/queues/${QUEUE}/items/${item.id}/decision`, { decision });
			expect(decided.status).toBe(200);
			const read = (await request('GET', `/queues/${QUEUE}/items/${item.id}`)).body;
			seen.add(read?.status);
			expect(read).toMatchObject({ status: decision, accepted: decision === 'accepted' });
			const callback = await receivedBody(
				(body) => body?.event === WEBHOOK_EVENTS.queueReviewCompleted && body?.data?.id === item.id,
			);
			expectShape(callback.body, WEBHOOK_BODY);
			expectShape(callback.body.data, QUEUE_ITEM);
			expect(callback.body.data).toEqual(read);
		},
	);

	it('every status read above is a documented one (API: pending, accepted, rejected, error; SDK: processing too), and each was seen', () => {
		const documented = new Set<unknown>([...QUEUE_STATUSES_API, ...QUEUE_STATUSES_SDK]);
		expect([...seen].filter((status) => !documented.has(status))).toEqual([]);
		expect([...documented].filter((status) => !seen.has(status))).toEqual([]);
	});
});

describe('metadata reaches the service under either documented key', () => {
	it.each(METADATA_KEYS.map((row) => ({ ...row, name: `${row.key} (${row.source})` })))('$name', async ({ key }) => {
		const meta = { source: key, n: 7 };
		const text = await request('POST', '/text', { text: 'with metadata', options: { [key]: meta } });
		expect(text.status).toBe(200);
		expect(text.body.meta).toEqual(meta);
		const image = await request('POST', '/image', { image: 'https://img.test/cat.jpg', options: { [key]: meta } });
		expect(image.status).toBe(200);
		expect(image.body.meta).toEqual(meta);
		const added = await request('POST', `/queues/${QUEUE}`, { type: 'text', content: 'with metadata', [key]: meta });
		expect(added.status).toBe(200);
		await idle();
		const item = (await request('GET', `/queues/${QUEUE}/items/${added.body.id}`)).body;
		expect(item.moderation.meta).toEqual(meta);
	});
});

/**
 * The vendor SDK's calls (src/contentmod-sdk.ts), reproduced: the same method, path, body and headers
 * (`performRequest`: Content-Type application/json and the secret key as bearer on every request, the body
 * `JSON.stringify`d, so an undefined `options` is left out; a non-2xx answer throws).
 */
describe("the vendor SDK's seven calls succeed", () => {
	async function performRequest(path: string, method: string, body?: unknown): Promise<any> {
		const response = await fetch(`${mock.url}${path}`, { method, headers: sdkHeaders(SECRET_KEY), body: JSON.stringify(body) });
		if (!response.ok) {
			throw new Error(response.status === 401 ? 'Unauthorized: Invalid API Key' : `${response.status} ${response.statusText}: ${await response.text()}`);
		}
		return await response.json();
	}
	const sdk = {
		text: {
			get: (id: string) => performRequest(`/text/${id}`, 'GET'),
			moderate: (text: string, options?: object) => performRequest('/text', 'POST', { text, options }),
		},
		image: { moderate: (image: string, options?: object) => performRequest('/image', 'POST', { image, options }) },
		queue: (queueId: string) => ({
			getItem: (id: string) => performRequest(`/queues/${queueId}/items/${id}`, 'GET'),
			addItem: (params: { type: 'text' | 'image'; content: string; metadata?: object; actorId?: string }) =>
				performRequest(`/queues/${queueId}`, 'POST', params),
		}),
		parseWebhook: (data: { event: string; data: unknown }) => ({ event: data.event, data: data.data }),
	};
	/** The last request the mock saw: what the SDK would have sent. */
	const lastRequest = () => mock.requests.at(-1)!;
	const expectSdkHeaders = () => {
		expect(lastRequest().headers).toMatchObject({ 'content-type': 'application/json', authorization: `Bearer ${SECRET_KEY}` });
	};

	let deferredId: string;
	let itemId: string;

	it('1. text.moderate(text, { metadata, actorId }): the full text result', async () => {
		const result = await sdk.text.moderate('The SDK moderates this text', { metadata: { post: 1 }, actorId: 'user-1' });
		expect(lastRequest()).toMatchObject({ method: 'POST', path: '/text', body: { text: 'The SDK moderates this text', options: { metadata: { post: 1 }, actorId: 'user-1' } } });
		expectSdkHeaders();
		expectShape(result, SDK_TEXT_RESULT);
		expect(result.meta).toEqual({ post: 1 });
		// With no options the SDK's body is only { text } (JSON drops the undefined options).
		expectShape(await sdk.text.moderate('no options'), SDK_TEXT_RESULT);
		expect(Object.keys(lastRequest().body as object)).toEqual(['text']);
	});

	it('2. text.moderate(text, { callbackUrl, defer, metadata }): { id }', async () => {
		const answer = await sdk.text.moderate('The SDK defers this text', { callbackUrl: receiverUrl, defer: true, metadata: { post: 2 } });
		expect(lastRequest()).toMatchObject({ method: 'POST', path: '/text' });
		expectShape(answer, DEFERRED_ANSWER);
		expect(Object.keys(answer)).toEqual(['id']);
		deferredId = answer.id;
	});

	it('3. text.get(id): the text result', async () => {
		await idle();
		const result = await sdk.text.get(deferredId);
		expect(lastRequest()).toMatchObject({ method: 'GET', path: `/text/${deferredId}` });
		expectSdkHeaders();
		expectShape(result, SDK_TEXT_RESULT);
		expect(result).toMatchObject({ id: deferredId, meta: { post: 2 } });
	});

	it('4. image.moderate(image, { metadata }): the image result', async () => {
		const result = await sdk.image.moderate('https://img.test/cat.jpg', { metadata: { post: 3 } });
		expect(lastRequest()).toMatchObject({ method: 'POST', path: '/image', body: { image: 'https://img.test/cat.jpg', options: { metadata: { post: 3 } } } });
		expectShape(result, IMAGE_RESULT);
		expect(result.meta).toEqual({ post: 3 });
	});

	it('5. queue(id).addItem({ type, content, metadata, actorId }): { id, status }', async () => {
		const answer = await sdk.queue(QUEUE).addItem({ type: 'text', content: 'The SDK queues this', metadata: { post: 5 }, actorId: 'user-5' });
		expect(lastRequest()).toMatchObject({
			method: 'POST',
			path: `/queues/${QUEUE}`,
			body: { type: 'text', content: 'The SDK queues this', metadata: { post: 5 }, actorId: 'user-5' },
		});
		expectShape(answer, QUEUE_ADD_ANSWER);
		itemId = answer.id;
	});

	it('6. queue(id).getItem(itemId): the queue item, its moderation the text result', async () => {
		await idle();
		const item = await sdk.queue(QUEUE).getItem(itemId);
		expect(lastRequest()).toMatchObject({ method: 'GET', path: `/queues/${QUEUE}/items/${itemId}` });
		expectShape(item, QUEUE_ITEM);
		expect(QUEUE_STATUSES_SDK).toContain(item.status);
		expectShape(item.moderation, SDK_TEXT_RESULT);
		expect(item.moderation.meta).toEqual({ post: 5 });
	});

	it('7. parseWebhook(body) on the callback the service sent for call 2: moderation.completed with the text result', async () => {
		const callback = await receivedBody((body) => body?.data?.id === deferredId);
		const parsed = sdk.parseWebhook(callback.body);
		expect(Object.values(WEBHOOK_EVENTS)).toContain(parsed.event);
		expect(parsed.event).toBe(WEBHOOK_EVENTS.moderationCompleted);
		expectShape(parsed.data, SDK_TEXT_RESULT);
		expect(parsed.data).toMatchObject({ id: deferredId, meta: { post: 2 } });
	});
});
