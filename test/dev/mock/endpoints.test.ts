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

describe('POST /image immediate', () => {
	it('answers 200 with every field of the image result, without an id (as the API reference shows it)', async () => {
		const response = await api('POST', '/image', { json: { image: UNSAFE_IMAGE_URL, options: { meta: { order: 7 } } } });
		expect(response.status).toBe(200);
		const result = response.body;
		expect(result).not.toHaveProperty('id');
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

describe('POST /text', () => {
	it('answers 200 with the full text result, with an id, readable and deletable by it', async () => {
		const response = await api('POST', '/text', { json: { text: PROFANE_TEXT, options: { meta: { post: 1 }, actorId: 'a-1' } } });
		expect(response.status).toBe(200);
		const result = response.body;
		expect(result.id).toMatch(UUID);
		expect(result).toMatchObject({
			isSafe: false,
			sentiment: 'negative',
			filteredContent: PROFANE_TEXT_FILTERED,
			content: PROFANE_TEXT,
			original: PROFANE_TEXT,
			meta: { post: 1 },
			actorId: 'a-1',
			summary: { profanity: true, language: 'en' },
			suggestedActions: { reject: true, review: false },
		});
		expect(result.request.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		expect(mock.service.submissionLog).toMatchObject([{ kind: 'text', id: result.id, type: 'text', actorId: 'a-1' }]);

		const read = await api('GET', `/text/${result.id}`);
		expect(read.status).toBe(200);
		expect(read.body).toEqual(result);
		const removed = await api('DELETE', `/text/${result.id}`);
		expect(removed.status).toBe(200);
		expect(removed.body).toEqual({ id: result.id, deleted: true });
		expectError(await api('GET', `/text/${result.id}`), 404, 'not_found');
		expectError(await api('DELETE', `/text/${result.id}`), 404, 'not_found');
	});

	it('masks banned words in filteredContent, whole words and any case, and flags the text', async () => {
		const clean = await api('POST', '/text', { json: { text: SAFE_TEXT } });
		expect(clean.body.isSafe).toBe(true);
		const response = await api('POST', '/text', {
			json: { text: `${SAFE_TEXT} Picnics, PARK and Park-life.`, options: { bannedWords: ['park', 'sunny afternoon'] } },
		});
		expect(response.status).toBe(200);
		expect(response.body.filteredContent).toBe(
			'What a wonderful *************** for a picnic in the **** with friends. Picnics, **** and ****-life.',
		);
		expect(response.body.content).toBe(`${SAFE_TEXT} Picnics, PARK and Park-life.`);
		// Four matches: severity 55 + 10 each, over the reject line.
		expect(response.body).toMatchObject({ isSafe: false, suggestedActions: { reject: true, review: false } });
		expect(response.body.nsfwCategories).toContainEqual({ category: 'banned_words', severity: 95 });
		expect(response.body.summary.totalFlags).toBe(response.body.nsfwCategories.length);
		// One match: not safe, for review.
		const once = await api('POST', '/text', { json: { text: SAFE_TEXT, options: { bannedWords: ['picnic'] } } });
		expect(once.body).toMatchObject({ isSafe: false, suggestedActions: { reject: false, review: true } });
		expect(once.body.nsfwCategories).toEqual([{ category: 'banned_words', severity: 65 }]);
	});

	it('masks banned words beside profanity', async () => {
		const response = await api('POST', '/text', { json: { text: PROFANE_TEXT, options: { bannedWords: ['product'] } } });
		expect(response.body.filteredContent).toBe('This ****ing ******* is ****.');
	});

	const cases: Case[] = [
		['an array body', [], 'invalid_body'],
		['no text', { options: {} }, 'missing_field', 'text'],
		['an empty text', { text: '' }, 'invalid_field', 'text'],
		['a number text', { text: 5 }, 'invalid_type', 'text'],
		['an unknown key', { text: 'hi', bannedWords: [] }, 'unknown_field', 'bannedWords'],
		['an unknown option', { text: 'hi', options: { callback: 'x' } }, 'unknown_field', 'options.callback'],
		['a string bannedWords', { text: 'hi', options: { bannedWords: 'park' } }, 'invalid_type', 'options.bannedWords'],
		['a number banned word', { text: 'hi', options: { bannedWords: ['ok', 3] } }, 'invalid_type', 'options.bannedWords[1]'],
		['a blank banned word', { text: 'hi', options: { bannedWords: [' '] } }, 'invalid_field', 'options.bannedWords[0]'],
		['a string defer', { text: 'hi', options: { defer: 'true' } }, 'invalid_type', 'options.defer'],
		['a relative callbackUrl', { text: 'hi', options: { callbackUrl: '/cb' } }, 'invalid_field', 'options.callbackUrl'],
		['an empty actorId', { text: 'hi', options: { actorId: '' } }, 'invalid_field', 'options.actorId'],
	];

	it.each(asRows(cases))('refuses $name with 400', async ({ json, code, field }) => {
		expectError(await api('POST', '/text', { json }), 400, code, field);
		expect(mock.service.submissions.size).toBe(0);
	});

	it('accepts a one-character text (the API reference: minimum length 1)', async () => {
		expect((await api('POST', '/text', { json: { text: ' ' } })).status).toBe(200);
	});
});

describe('metadata: meta and metadata', () => {
	const both = { meta: { from: 'meta' }, metadata: { from: 'metadata' } };

	afterEach(() => mock.service.configure({ metadataKey: 'both' }));

	it.each([
		['both', { meta: { a: 1 } }, { a: 1 }],
		['both', { metadata: { a: 2 } }, { a: 2 }],
		['both', both, { from: 'meta' }],
		['meta', both, { from: 'meta' }],
		['meta', { metadata: { a: 3 } }, null],
		['metadata', both, { from: 'metadata' }],
		['metadata', { meta: { a: 4 } }, null],
	] as const)('with metadataKey %s reads %j as meta %j, for images, texts and queue items', async (key, sent, expected) => {
		mock.service.configure({ metadataKey: key });
		const image = await api('POST', '/image', { json: { image: SAFE_IMAGE_URL, options: sent } });
		const text = await api('POST', '/text', { json: { text: SAFE_TEXT, options: sent } });
		const item = await api('POST', '/queues/main', { json: { type: 'text', content: SAFE_TEXT, ...sent } });
		expect([image.status, text.status, item.status]).toEqual([200, 200, 200]);
		expect(image.body.meta).toEqual(expected);
		expect(text.body.meta).toEqual(expected);
		expect((await api('GET', `/queues/main/items/${item.body.id}`)).body.meta).toEqual(expected);
	});

	it('ignores the key it does not read, whatever it holds', async () => {
		mock.service.configure({ metadataKey: 'meta' });
		const item = await api('POST', '/queues/main', { json: { type: 'text', content: SAFE_TEXT, metadata: 42 } });
		expect(item.status).toBe(200);
		expect(() => mock.service.configure({ metadataKey: 'metas' as 'meta' })).toThrow(RangeError);
	});
});
