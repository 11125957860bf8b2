/** endpoints.ts: POST /image immediate, POST /text, review queues. */
import {
	makePng,
	PROFANE_TEXT,
	PROFANE_TEXT_FILTERED,
	REVIEW_IMAGE_URL,
	SAFE_IMAGE_BASE64,
	SAFE_IMAGE_URL,
	SAFE_TEXT,
	UNSAFE_IMAGE_URL,
} from '../../../dev/mock/fixtures';
import { waitFor } from '../../../dev/wait';
import { asRows, expectError, UUID, useMockApi, type Case } from './mock-api';

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

const { mock, api } = useMockApi({ processMs: 50 });

describe('review queues', () => {
	const readWhen = async (queue: string, id: string, status: string) =>
		await waitFor(`item ${id} to read ${status}`, async () => {
			const r = await api('GET', `/queues/${queue}/items/${id}`);
			return r.body.status === status ? r : undefined;
		}, 2_000, 20);

	it('moderates a text item: processing, then pending with the full text result, readable at GET /text/{id}', async () => {
		// Long enough that the first read surely comes before processing on a busy machine.
		mock.service.configure({ processMs: 500 });
		const added = await api('POST', '/queues/main', {
			json: { type: 'text', content: PROFANE_TEXT, meta: { post: 9 }, actorId: 'a-1' },
		}).finally(() => mock.service.configure({ processMs: 50 }));
		expect(added.status).toBe(200);
		expect(added.body).toEqual({ id: expect.stringMatching(UUID), status: 'processing' });

		const early = await api('GET', `/queues/main/items/${added.body.id}`);
		expect(early.status).toBe(200);
		expect(early.body).toEqual({
			id: added.body.id,
			type: 'text',
			accepted: false,
			status: 'processing',
			content: PROFANE_TEXT,
			moderation: null,
			meta: { post: 9 },
		});

		const done = await readWhen('main', added.body.id, 'pending');
		expect(done.body.accepted).toBe(false);
		const moderation = done.body.moderation;
		expect(moderation.id).toMatch(UUID);
		expect(moderation).toMatchObject({
			isSafe: false,
			filteredContent: PROFANE_TEXT_FILTERED,
			content: PROFANE_TEXT,
			meta: { post: 9 },
			suggestedActions: { reject: true, review: false },
		});
		const text = await api('GET', `/text/${moderation.id}`);
		expect(text.status).toBe(200);
		expect(text.body).toEqual(moderation);

		expect(mock.service.submissions.get('actor:a-1')).toBe(1);
		expect(mock.service.submissions.get('meta:{"post":9}')).toBe(1);
		expect(mock.service.submissionLog[0]).toMatchObject({ kind: 'queue', queueId: 'main', type: 'text' });
	});

	it('moderates an image item into an image result with its id, readable (without id) at GET /image/{id}', async () => {
		const added = await api('POST', '/queues/photos', { json: { type: 'image', content: REVIEW_IMAGE_URL } });
		expect(added.status).toBe(200);
		const done = await readWhen('photos', added.body.id, 'pending');
		expect(done.body.moderation).toMatchObject({ id: expect.stringMatching(UUID), isSafe: true, suggestedActions: { review: true } });
		const { id, ...result } = done.body.moderation;
		const image = await api('GET', `/image/${id}`);
		expect(image.body).toEqual(result);
	});

	it('keeps a string meta as a string', async () => {
		const added = await api('POST', '/queues/main', { json: { type: 'text', content: SAFE_TEXT, meta: '{}' } });
		const done = await readWhen('main', added.body.id, 'pending');
		expect(done.body.meta).toBe('{}');
		expect(done.body.moderation.meta).toBe('{}');
	});

	it.each([
		['a text', { type: 'text', content: 'please mock_fail this' }],
		['an image URL', { type: 'image', content: 'https://img.test/mock_fail.jpg' }],
		['an image URL parameter', { type: 'image', content: 'https://img.test/x.jpg?mock_fail=1' }],
		['a PNG marker', { type: 'image', content: makePng('mock_fail').toString('base64') }],
	])('reads status error, moderation null, when the moderation of %s fails (mock_fail)', async (_name, json) => {
		const added = await api('POST', '/queues/main', { json });
		expect(added.status).toBe(200);
		await mock.service.whenIdle(30_000);
		const read = await api('GET', `/queues/main/items/${added.body.id}`);
		expect(read.body).toMatchObject({ status: 'error', accepted: false, moderation: null });
	});

	it('processes text items in textProcessMs, image items in processMs', async () => {
		mock.service.configure({ textProcessMs: 400 });
		try {
			const text = await api('POST', '/queues/main', { json: { type: 'text', content: SAFE_TEXT } });
			const image = await api('POST', '/queues/photos', { json: { type: 'image', content: SAFE_IMAGE_URL } });
			await new Promise((done) => setTimeout(done, 200));
			// processMs is 50 here: the image is done, the text (400 ms) is not.
			expect((await api('GET', `/queues/photos/items/${image.body.id}`)).body.status).toBe('pending');
			expect((await api('GET', `/queues/main/items/${text.body.id}`)).body.status).toBe('processing');
			await mock.service.whenIdle(30_000);
			expect((await api('GET', `/queues/main/items/${text.body.id}`)).body.moderation).toMatchObject({ isSafe: true });
		} finally {
			mock.service.configure({ textProcessMs: null });
		}
		expect(() => mock.service.configure({ textProcessMs: -1 })).toThrow(RangeError);
	});

	it('gives unique ids across queues and hides an item under another queue', async () => {
		const one = await api('POST', '/queues/first', { json: { type: 'text', content: SAFE_TEXT } });
		const two = await api('POST', '/queues/second', { json: { type: 'text', content: SAFE_TEXT } });
		expect(one.body.id).not.toBe(two.body.id);
		expectError(await api('GET', `/queues/second/items/${one.body.id}`), 404, 'not_found');
		expectError(await api('GET', `/queues/first/items/${NO_SUCH_ID}`), 404, 'not_found');
		expect((await api('GET', `/queues/first/items/${one.body.id}`)).status).toBe(200);
		expect(mock.service.submissions.get(`hash:${mock.service.submissionLog[0].hash}`)).toBe(2);
	});

	const cases: Case[] = [
		['an array body', [], 'invalid_body'],
		['no type', { content: 'hello' }, 'missing_field', 'type'],
		['an unknown type', { type: 'video', content: 'hello' }, 'invalid_field', 'type'],
		['no content', { type: 'text' }, 'missing_field', 'content'],
		['a number content', { type: 'text', content: 3 }, 'invalid_type', 'content'],
		['an empty content', { type: 'text', content: '' }, 'invalid_field', 'content'],
		['image content that is no image', { type: 'image', content: 'hello world' }, 'invalid_field', 'content'],
		['image content missing', { type: 'image' }, 'missing_field', 'content'],
		['image content with a bad mock parameter', { type: 'image', content: `${SAFE_IMAGE_URL}?mock_risk=0` }, 'invalid_mock_parameter', 'content'],
		['a number meta', { type: 'text', content: 'hello', meta: 3 }, 'invalid_type', 'meta'],
		['an array metadata', { type: 'text', content: 'hello', metadata: [] }, 'invalid_type', 'metadata'],
		['a null meta', { type: 'text', content: 'hello', meta: null }, 'invalid_type', 'meta'],
		['a number actorId', { type: 'text', content: 'hello', actorId: 1 }, 'invalid_type', 'actorId'],
		['an empty actorId', { type: 'text', content: 'hello', actorId: '' }, 'invalid_field', 'actorId'],
		['an unknown key', { type: 'text', content: 'hello', options: {} }, 'unknown_field', 'options'],
	];

	it.each(asRows(cases))('refuses $name with 400', async ({ json, code, field }) => {
		expectError(await api('POST', '/queues/main', { json }), 400, code, field);
		expect(mock.service.submissions.size).toBe(0);
	});

	it('refuses a queue id under 3 characters, on add and on read', async () => {
		expectError(await api('POST', '/queues/ab', { json: { type: 'text', content: 'hello' } }), 400, 'invalid_path_parameter', 'queueId');
		expectError(await api('GET', `/queues/ab/items/${NO_SUCH_ID}`), 400, 'invalid_path_parameter', 'queueId');
		expectError(await api('GET', '/queues/main/items/abc'), 400, 'invalid_path_parameter', 'itemId');
	});
});
