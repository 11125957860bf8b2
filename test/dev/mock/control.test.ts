/** control.ts and `decide`: review decisions, the account webhook URL and the mock's settings endpoint. */
import { SAFE_TEXT, REVIEW_IMAGE_URL } from '../../../dev/mock/fixtures';
import { MockApiError } from '../../../dev/mock/errors';
import { asRows, expectError, startReceiver, UUID, useMockApi, type Case } from './mock-api';

const { mock, api } = useMockApi({ processMs: 30, callbackBackoffMs: 20 });
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

afterEach(() => mock.service.configure({ webhookUrl: null, latencyMs: 0, faultRate: 0, rateLimit: 0 }));

/** Adds an item and waits until it is moderated (pending). */
async function pendingItem(queue = 'reviews', json: object = { type: 'text', content: SAFE_TEXT, meta: { post: 1 } }) {
	const added = await api('POST', `/queues/${queue}`, { json });
	expect(added.status).toBe(200);
	await mock.service.whenIdle(30_000);
	const read = await api('GET', `/queues/${queue}/items/${added.body.id}`);
	expect(read.body.status).toBe('pending');
	return read.body;
}

const decision = (queue: string, id: string, json: unknown, token?: string | null) =>
	api('POST', `/__mock/queues/${queue}/items/${id}/decision`, { json, token });

describe('POST /__mock/queues/{queueId}/items/{itemId}/decision', () => {
	it.each(['accepted', 'rejected'] as const)(
		'%s: the item reads the decision and queue.review.completed goes to the account webhook URL',
		async (choice) => {
			const receiver = await startReceiver();
			try {
				const settings = await api('POST', '/__mock/settings', { json: { webhookUrl: receiver.url } });
				expect(settings.status).toBe(200);
				expect(settings.body).toEqual({ webhookUrl: receiver.url, metadataKey: 'both' });
				const item = await pendingItem();
				const decided = await decision('reviews', item.id, { decision: choice });
				expect(decided.status).toBe(200);
				const expected = { ...item, status: choice, accepted: choice === 'accepted' };
				expect(decided.body).toEqual(expected);
				expect((await api('GET', `/queues/reviews/items/${item.id}`)).body).toEqual(expected);
				await mock.service.whenIdle(30_000);
				expect(receiver.deliveries.map((d) => d.body)).toEqual([{ event: 'queue.review.completed', data: expected }]);
				expect(receiver.deliveries[0].headers['content-type']).toBe('application/json');
				expect(mock.service.callbacks).toEqual([
					expect.objectContaining({ moderationId: item.id, event: 'queue.review.completed', url: receiver.url, ok: true }),
				]);
			} finally {
				await receiver.stop();
			}
		},
	);

	it('decides an image item too; its moderation keeps the image result with its id', async () => {
		const item = await pendingItem('photos', { type: 'image', content: REVIEW_IMAGE_URL });
		const decided = await decision('photos', item.id, { decision: 'accepted' });
		expect(decided.body).toMatchObject({ status: 'accepted', accepted: true, moderation: { id: expect.stringMatching(UUID) } });
	});

	it('answers 409 unless the item is pending: still processing, already decided, or in error', async () => {
		mock.service.configure({ processMs: 300 });
		let processing;
		try {
			processing = await api('POST', '/queues/reviews', { json: { type: 'text', content: SAFE_TEXT } });
			expectError(await decision('reviews', processing.body.id, { decision: 'accepted' }), 409, 'not_pending');
		} finally {
			mock.service.configure({ processMs: 30 });
		}
		const item = await pendingItem();
		expect((await decision('reviews', item.id, { decision: 'rejected' })).status).toBe(200);
		expectError(await decision('reviews', item.id, { decision: 'accepted' }), 409, 'not_pending');
		expect((await api('GET', `/queues/reviews/items/${item.id}`)).body.status).toBe('rejected');

		const failed = await api('POST', '/queues/reviews', { json: { type: 'text', content: 'mock_fail' } });
		await mock.service.whenIdle(30_000);
		expectError(await decision('reviews', failed.body.id, { decision: 'accepted' }), 409, 'not_pending');
	});

	it('sends nothing when no webhook URL is set', async () => {
		const item = await pendingItem();
		expect((await decision('reviews', item.id, { decision: 'accepted' })).status).toBe(200);
		await mock.service.whenIdle(30_000);
		expect(mock.service.callbacks).toEqual([]);
	});

	it('retries the announcement like a callback', async () => {
		const receiver = await startReceiver((n) => (n === 1 ? 503 : 200));
		try {
			mock.service.configure({ webhookUrl: receiver.url });
			const item = await pendingItem();
			await decision('reviews', item.id, { decision: 'accepted' });
			await mock.service.whenIdle(30_000);
			expect(mock.service.callbacks.map((a) => [a.event, a.attempt, a.status])).toEqual([
				['queue.review.completed', 1, 503],
				['queue.review.completed', 2, 200],
			]);
		} finally {
			await receiver.stop();
		}
	});

	const cases: Case[] = [
		['no decision', {}, 'missing_field', 'decision'],
		['an unknown decision', { decision: 'approved' }, 'invalid_field', 'decision'],
		['a boolean decision', { decision: true }, 'invalid_field', 'decision'],
		['an unknown key', { decision: 'accepted', reason: 'x' }, 'unknown_field', 'reason'],
		['an array body', [], 'invalid_body'],
	];

	it.each(asRows(cases))('refuses $name with 400 and leaves the item pending', async ({ json, code, field }) => {
		const item = await pendingItem();
		expectError(await decision('reviews', item.id, json), 400, code, field);
		expect((await api('GET', `/queues/reviews/items/${item.id}`)).body.status).toBe('pending');
	});

	it('needs the bearer token, a known item (404) and well-formed ids (400)', async () => {
		const item = await pendingItem();
		expectError(await decision('reviews', item.id, { decision: 'accepted' }, null), 401, 'unauthorized');
		expectError(await decision('reviews', NO_SUCH_ID, { decision: 'accepted' }), 404, 'not_found');
		expectError(await decision('other', item.id, { decision: 'accepted' }), 404, 'not_found');
		expectError(await decision('reviews', 'abc', { decision: 'accepted' }), 400, 'invalid_path_parameter', 'itemId');
		expect((await api('GET', `/queues/reviews/items/${item.id}`)).body.status).toBe('pending');
	});

	it('is not held by latency, faults or the rate limit (it stands for a person in the dashboard)', async () => {
		const item = await pendingItem();
		mock.service.configure({ latencyMs: 2_000, faultRate: 1, rateLimit: 1 });
		const decided = await decision('reviews', item.id, { decision: 'accepted' });
		expect(decided.status).toBe(200);
		expect(decided.durationMs).toBeLessThan(1_500);
	});
});

describe('decide (in process)', () => {
	it('decides like the endpoint and throws the endpoint\'s errors', async () => {
		const item = await pendingItem();
		const decided = mock.service.decide('reviews', item.id, 'rejected');
		expect(decided).toMatchObject({ id: item.id, status: 'rejected', accepted: false });
		// A copy: changing it changes nothing in the service.
		decided.status = 'accepted';
		expect((await api('GET', `/queues/reviews/items/${item.id}`)).body.status).toBe('rejected');
		expect(() => mock.service.decide('reviews', item.id, 'accepted')).toThrow(expect.objectContaining({ status: 409 }));
		expect(() => mock.service.decide('reviews', NO_SUCH_ID, 'accepted')).toThrow(MockApiError);
		const other = await pendingItem();
		expect(() => mock.service.decide('reviews', other.id, 'maybe' as 'accepted')).toThrow(expect.objectContaining({ status: 400 }));
	});
});

describe('/__mock/settings', () => {
	it('reads and sets the webhook URL and the metadata key; null clears the URL', async () => {
		expect((await api('GET', '/__mock/settings')).body).toEqual({ webhookUrl: null, metadataKey: 'both' });
		const set = await api('POST', '/__mock/settings', { json: { webhookUrl: 'http://127.0.0.1:9/hook?token=x', metadataKey: 'meta' } });
		expect(set.body).toEqual({ webhookUrl: 'http://127.0.0.1:9/hook?token=x', metadataKey: 'meta' });
		const cleared = await api('POST', '/__mock/settings', { json: { webhookUrl: null, metadataKey: 'both' } });
		expect(cleared.body).toEqual({ webhookUrl: null, metadataKey: 'both' });
	});

	const cases: Case[] = [
		['a relative URL', { webhookUrl: '/hook' }, 'invalid_field', 'webhookUrl'],
		['an ftp URL', { webhookUrl: 'ftp://host/hook' }, 'invalid_field', 'webhookUrl'],
		['a number URL', { webhookUrl: 3 }, 'invalid_type', 'webhookUrl'],
		['an unknown metadata key', { metadataKey: 'data' }, 'invalid_field', 'metadataKey'],
		['an unknown setting', { latencyMs: 5 }, 'unknown_field', 'latencyMs'],
	];

	it.each(asRows(cases))('refuses $name with 400 and changes nothing', async ({ json, code, field }) => {
		expectError(await api('POST', '/__mock/settings', { json }), 400, code, field);
		expect((await api('GET', '/__mock/settings')).body).toEqual({ webhookUrl: null, metadataKey: 'both' });
	});

	it('needs the bearer token', async () => {
		expectError(await api('POST', '/__mock/settings', { json: { webhookUrl: null }, token: null }), 401, 'unauthorized');
	});

	it('configure checks webhookUrl too', () => {
		expect(() => mock.service.configure({ webhookUrl: 'not a url' })).toThrow(RangeError);
	});
});
