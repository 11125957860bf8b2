/** endpoints.ts: POST /image immediate, queues and texts. */
import { PROFANE_TEXT, PROFANE_TEXT_FILTERED, REVIEW_IMAGE_URL, SAFE_IMAGE_BASE64, SAFE_IMAGE_URL, SAFE_TEXT, UNSAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { waitFor } from '../../../dev/wait';
import { asRows, expectError, UUID, useMockApi, type Case } from './mock-api';

const { mock, api } = useMockApi({ processMs: 50 });

describe('POST /image immediate', () => {
	it('answers 200 with every field of the image result', async () => {
		const response = await api('POST', '/image', { json: { image: UNSAFE_IMAGE_URL, options: { meta: { order: 7 } } } });
		expect(response.status).toBe(200);
		const result = response.body;
		expect(result.id).toMatch(UUID);
		expect(result).toMatchObject({
			isSafe: false,
			suggestedActions: { reject: true, review: false },
			nsfwCategories: [{ category: 'adult_content', severity: 92 }],
			summary: { totalFlags: 1, contentRating: 'NC-17', language: 'en', profanity: false },
			meta: { order: 7 },
			sentiment: 'neutral',
		});
		for (const score of [result.confidence, result.sentimentScore, ...Object.values(result.riskScores)]) {
			expect(Number.isInteger(score) && score >= 1 && score <= 100).toBe(true);
		}
		expect(Object.keys(result.riskScores).sort()).toEqual(['overall', 'spam', 'toxicity']);
		expect(typeof result.description).toBe('string');
		expect(Array.isArray(result.topics)).toBe(true);
		expect(result.request.requestId).toMatch(UUID);
		expect(result.request.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		// The hash of a URL submission is the SHA-256 of the URL text.
		expect(result.hash).toBe('f95f71af64661b266b965af1f51b98499e014b28173b5d0689e932a7083dfc19');
		expect(mock.service.submissions.get(`hash:${result.hash}`)).toBe(1);
		expect(mock.service.submissions.get('meta:{"order":7}')).toBe(1);

		const again = await api('GET', `/image/${result.id}`);
		expect(again.status).toBe(200);
		expect(again.body).toEqual(result);
	});

	it('hashes base64 images by their decoded bytes and reads the PNG marker', async () => {
		const response = await api('POST', '/image', { json: { image: SAFE_IMAGE_BASE64 } });
		expect(response.status).toBe(200);
		const { createHash } = await import('node:crypto');
		expect(response.body.hash).toBe(createHash('sha256').update(Buffer.from(SAFE_IMAGE_BASE64, 'base64')).digest('hex'));
		expect(response.body).toMatchObject({ isSafe: true, topics: ['cat'], meta: null });
	});

	it('accepts JPEG, GIF and WebP bytes', async () => {
		const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
		const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
		const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(18)]);
		for (const bytes of [jpeg, gif, webp]) {
			const response = await api('POST', '/image', { json: { image: bytes.toString('base64') } });
			expect(response.status).toBe(200);
			expect(response.body.isSafe).toBe(true);
		}
	});

	it('counts submissions by actor so a duplicate shows', async () => {
		await api('POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { actorId: 'user-1' } } });
		await api('POST', '/image', { json: { image: REVIEW_IMAGE_URL, options: { actorId: 'user-1' } } });
		expect(mock.service.submissions.get('actor:user-1')).toBe(2);
		expect(mock.service.submissionLog.map((entry) => entry.kind)).toEqual(['image', 'image']);
	});
});

describe('queues and texts', () => {
	it('processes a text item into a text moderation readable and deletable by id', async () => {
		// Long enough that the first read surely comes before processing on a busy machine.
		mock.service.configure({ processMs: 500 });
		const added = await api('POST', '/queues/main', { json: { type: 'text', content: PROFANE_TEXT, meta: 'm-1', actorId: 'a-1' } }).finally(() =>
			mock.service.configure({ processMs: 50 }),
		);
		expect(added.status).toBe(202);
		expect(added.body).toEqual({ id: expect.stringMatching(UUID), status: 'processing' });

		const early = await api('GET', `/queues/main/items/${added.body.id}`);
		expect(early.status).toBe(200);
		// As the spec's sample reads: pending, moderation null.
		expect(early.body).toEqual({
			id: added.body.id,
			type: 'text',
			accepted: false,
			status: 'pending',
			content: PROFANE_TEXT,
			moderation: null,
		});

		const done = await waitFor('the item to be processed', async () => {
			const r = await api('GET', `/queues/main/items/${added.body.id}`);
			return r.body.moderation !== null ? r : undefined;
		}, 2_000, 20);
		expect(done.body.status).toBe('completed');
		expect(done.body.accepted).toBe(true);
		const moderation = done.body.moderation;
		expect(moderation.id).toMatch(UUID);
		expect(moderation).toMatchObject({
			isSafe: false,
			sentiment: 'negative',
			filteredContent: PROFANE_TEXT_FILTERED,
			content: PROFANE_TEXT,
			meta: 'm-1',
			summary: { profanity: true, language: 'en' },
			suggestedActions: { reject: true, review: false },
		});

		const text = await api('GET', `/text/${moderation.id}`);
		expect(text.status).toBe(200);
		expect(text.body).toEqual(moderation);

		const removed = await api('DELETE', `/text/${moderation.id}`);
		expect(removed.status).toBe(200);
		expect(removed.body).toEqual({ id: moderation.id, deleted: true });
		expectError(await api('GET', `/text/${moderation.id}`), 404, 'not_found');
		expectError(await api('DELETE', `/text/${moderation.id}`), 404, 'not_found');

		expect(mock.service.submissions.get('actor:a-1')).toBe(1);
		expect(mock.service.submissions.get('meta:"m-1"')).toBe(1);
		expect(mock.service.submissionLog[0]).toMatchObject({ kind: 'queue', queueId: 'main', type: 'text' });
	});

	it('processes an image item into an image result also readable by GET /image/{id}', async () => {
		const added = await api('POST', '/queues/photos', { json: { type: 'image', content: REVIEW_IMAGE_URL } });
		expect(added.status).toBe(202);
		const done = await waitFor('the item to be processed', async () => {
			const r = await api('GET', `/queues/photos/items/${added.body.id}`);
			return r.body.moderation !== null ? r : undefined;
		}, 2_000, 20);
		expect(done.body.status).toBe('completed');
		expect(done.body.moderation).toMatchObject({ isSafe: true, suggestedActions: { review: true, reject: false } });
		const image = await api('GET', `/image/${done.body.moderation.id}`);
		expect(image.body).toEqual(done.body.moderation);
	});

	it('reads processed items as pending when asked to (the other reading of the spec)', async () => {
		mock.service.configure({ processedStatus: 'pending' });
		try {
			const added = await api('POST', '/queues/main', { json: { type: 'text', content: SAFE_TEXT } });
			const done = await waitFor('the item to be processed', async () => {
				const r = await api('GET', `/queues/main/items/${added.body.id}`);
				return r.body.moderation !== null ? r : undefined;
			}, 2_000, 20);
			expect(done.body).toMatchObject({ status: 'pending', accepted: true, moderation: { isSafe: true } });
		} finally {
			mock.service.configure({ processedStatus: 'completed' });
		}
		expect(() => mock.service.configure({ processedStatus: 'done' as 'pending' })).toThrow(RangeError);
	});

	it('keeps only the id in moderation when asked to; GET /text/{id} and GET /image/{id} give the results', async () => {
		mock.service.configure({ queueModeration: 'id' });
		try {
			const text = await api('POST', '/queues/main', { json: { type: 'text', content: PROFANE_TEXT } });
			const image = await api('POST', '/queues/photos', { json: { type: 'image', content: REVIEW_IMAGE_URL } });
			const read = async (queue: string, id: string) =>
				await waitFor('the item to be processed', async () => {
					const r = await api('GET', `/queues/${queue}/items/${id}`);
					return r.body.moderation !== null ? r : undefined;
				}, 2_000, 20);
			const [textItem, imageItem] = [await read('main', text.body.id), await read('photos', image.body.id)];
			expect(textItem.body).toMatchObject({ status: 'completed', accepted: true, moderation: { id: expect.stringMatching(UUID) } });
			expect(Object.keys(textItem.body.moderation)).toEqual(['id']);
			expect(Object.keys(imageItem.body.moderation)).toEqual(['id']);
			const full = await api('GET', `/text/${textItem.body.moderation.id}`);
			expect(full.body).toMatchObject({ isSafe: false, filteredContent: PROFANE_TEXT_FILTERED });
			expect((await api('GET', `/image/${imageItem.body.moderation.id}`)).body).toMatchObject({ suggestedActions: { review: true } });
		} finally {
			mock.service.configure({ queueModeration: 'full' });
		}
		expect(() => mock.service.configure({ queueModeration: 'ids' as 'id' })).toThrow(RangeError);
	});

	it('processes text items in textProcessMs, image items in processMs', async () => {
		mock.service.configure({ textProcessMs: 400 });
		try {
			const text = await api('POST', '/queues/main', { json: { type: 'text', content: SAFE_TEXT } });
			const image = await api('POST', '/queues/photos', { json: { type: 'image', content: SAFE_IMAGE_URL } });
			await new Promise((done) => setTimeout(done, 200));
			// processMs is 50 here: the image is done, the text (400 ms) is not.
			expect((await api('GET', `/queues/photos/items/${image.body.id}`)).body.moderation).not.toBeNull();
			expect((await api('GET', `/queues/main/items/${text.body.id}`)).body.moderation).toBeNull();
			await mock.service.whenIdle(2_000);
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
		expect((await api('GET', `/queues/first/items/${one.body.id}`)).status).toBe(200);
		expect(mock.service.submissions.get(`hash:${mock.service.submissionLog[0].hash}`)).toBe(2);
	});

	const cases: Case[] = [
		['an array body', [], 'invalid_body'],
		['no type', { content: 'hello' }, 'missing_field', 'type'],
		['an unknown type', { type: 'video', content: 'hello' }, 'invalid_field', 'type'],
		['no content', { type: 'text' }, 'missing_field', 'content'],
		['a number content', { type: 'text', content: 3 }, 'invalid_type', 'content'],
		['a blank content', { type: 'text', content: '   ' }, 'invalid_field', 'content'],
		['image content that is no image', { type: 'image', content: 'hello world' }, 'invalid_field', 'content'],
		['image content missing', { type: 'image' }, 'missing_field', 'content'],
		['image content with a bad mock parameter', { type: 'image', content: `${SAFE_IMAGE_URL}?mock_risk=0` }, 'invalid_mock_parameter', 'content'],
		['an object meta', { type: 'text', content: 'hello', meta: { a: 1 } }, 'invalid_type', 'meta'],
		['a number actorId', { type: 'text', content: 'hello', actorId: 1 }, 'invalid_type', 'actorId'],
		['an empty actorId', { type: 'text', content: 'hello', actorId: '' }, 'invalid_field', 'actorId'],
		['an unknown key', { type: 'text', content: 'hello', options: {} }, 'unknown_field', 'options'],
	];

	it.each(asRows(cases))('refuses $name with 400', async ({ json, code, field }) => {
		expectError(await api('POST', '/queues/main', { json }), 400, code, field);
		expect(mock.service.submissions.size).toBe(0);
	});
});
