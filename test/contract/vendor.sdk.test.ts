/**
 * The requests the vendor's SDK makes, reproduced here (method, path, body keys, headers), all seven of
 * which must succeed against the mock.
 */
import { DEFERRED_ANSWER, IMAGE_RESULT, QUEUE_ADD_ANSWER, QUEUE_ITEM, QUEUE_STATUSES_SDK, SDK_TEXT_RESULT, sdkHeaders, WEBHOOK_EVENTS } from './vendor-facts';
import { expectShape, idle, mock, QUEUE, receivedBody, receiverUrl, request, SECRET_KEY, useContract } from './harness';

useContract();

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
