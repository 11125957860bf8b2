/**
 * The contract: what the vendor's documents state (vendor-facts.ts), run against the mock over HTTP, so that
 * the mock cannot drift from them again. The SDK's own requests are in vendor.sdk.test.ts.
 */
import { DEFERRED_ANSWER, ENDPOINTS, IMAGE_RESULT, METADATA_KEYS, QUEUE_ADD_ANSWER, QUEUE_ITEM, QUEUE_STATUSES_API, QUEUE_STATUSES_SDK, REQUEST_RULES, TEXT_RESULT, WEBHOOK_BODY, WEBHOOK_EVENTS } from './vendor-facts';
import { expectShape, idle, mock, pathIds, QUEUE, receivedBody, receiverUrl, request, useContract } from './harness';

useContract();

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
