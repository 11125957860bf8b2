import { call, type CallOptions } from '../../../dev/mock/client';
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
import { startMockService } from '../../../dev/mock/server';
import { waitFor } from '../../../dev/wait';
import { useMock } from '../../helpers/mock';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const mock = useMock({ token: 'test-token' });
const api = (method: string, path: string, options?: CallOptions) => call(mock.service.url, method, path, options);

type Case = [name: string, json: unknown, code: string, field?: string];
function asRows(cases: Case[]) {
	return cases.map(([name, json, code, field]) => ({ name, json, code, field }));
}

function expectError(response: { status: number; body: any }, status: number, code: string, field?: string) {
	expect(response.status).toBe(status);
	expect(response.body.error).toMatchObject({ status, code });
	expect(typeof response.body.error.message).toBe('string');
	expect(response.body.error.message.length).toBeGreaterThan(5);
	if (field === undefined) expect(response.body.error).not.toHaveProperty('field');
	else {
		expect(response.body.error.field).toBe(field);
		expect(response.body.error.message).toContain(field);
	}
}

describe('startMockService', () => {
	it('listens on 127.0.0.1 with a free port and the default token', async () => {
		const plain = await startMockService();
		try {
			expect(plain.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(plain.url.endsWith(`:${plain.port}`)).toBe(true);
			expect(plain.token).toBe('test-token');
		} finally {
			await plain.stop();
		}
	});

	it('refuses out-of-range options', async () => {
		await expect(startMockService({ faultRate: 2 })).rejects.toThrow(/faultRate/);
		await expect(startMockService({ latencyMs: -1 })).rejects.toThrow(/latencyMs/);
	});
});

describe('auth', () => {
	const routes: Array<[string, string, unknown?]> = [
		['POST', '/image', { image: SAFE_IMAGE_URL }],
		['GET', '/image/abcdef'],
		['POST', '/queues/main', { type: 'text', content: 'hello there' }],
		['GET', '/queues/main/items/abcdef'],
		['GET', '/text/abcdef'],
		['DELETE', '/text/abcdef'],
		['GET', '/unknown/route'],
	];

	it.each(routes.map(([method, path, json]) => ({ method, path, json })))(
		'$method $path without a token is 401 and acts on nothing',
		async ({ method, path, json }) => {
		const response = await api(method, path, { token: null, json });
		expectError(response, 401, 'unauthorized');
		expect(response.headers['www-authenticate']).toBe('Bearer');
		expect(mock.service.submissions.size).toBe(0);
		expect(mock.service.requests.at(-1)).toMatchObject({ method, path, status: 401 });
		},
	);

	it('refuses a wrong token without echoing it', async () => {
		const response = await api('POST', '/image', { token: 'secret-guess', json: { image: SAFE_IMAGE_URL } });
		expectError(response, 401, 'unauthorized');
		expect(JSON.stringify(response.body)).not.toContain('secret-guess');
		expect(mock.service.submissionLog).toHaveLength(0);
	});

	it('refuses other schemes and accepts a case-insensitive Bearer', async () => {
		const basic = await api('GET', '/image/abcdef', { token: null, headers: { authorization: 'Basic dGVzdC10b2tlbg==' } });
		expectError(basic, 401, 'unauthorized');
		const lower = await api('GET', '/image/abcdef', { token: null, headers: { authorization: 'bearer test-token' } });
		expect(lower.status).toBe(404);
	});

	it('takes the token from the options', async () => {
		const other = await startMockService({ token: 'other-token' });
		try {
			expect((await call(other.url, 'GET', '/image/abcdef')).status).toBe(401);
			expect((await call(other.url, 'GET', '/image/abcdef', { token: 'other-token' })).status).toBe(404);
		} finally {
			await other.stop();
		}
	});
});

describe('routing', () => {
	it('answers unknown routes 404 JSON', async () => {
		expectError(await api('GET', '/images'), 404, 'not_found');
		expectError(await api('POST', '//image', { json: { image: SAFE_IMAGE_URL } }), 404, 'not_found');
		expectError(await api('GET', '/queues/main/items'), 404, 'not_found');
	});

	it('answers a wrong method on a known path 405 with Allow', async () => {
		const put = await api('PUT', '/image', { json: { image: SAFE_IMAGE_URL } });
		expectError(put, 405, 'method_not_allowed');
		expect(put.headers.allow).toBe('POST');
		const post = await api('POST', '/text/abcdef', { json: {} });
		expectError(post, 405, 'method_not_allowed');
		expect(post.headers.allow).toBe('GET, DELETE');
		expectError(await api('DELETE', '/image/abcdef'), 405, 'method_not_allowed');
	});

	it('refuses ids under 3 characters where the spec sets a minimum', async () => {
		expectError(await api('GET', '/image/ab'), 400, 'invalid_path_parameter', 'id');
		expectError(await api('GET', '/text/ab'), 400, 'invalid_path_parameter', 'id');
		expectError(await api('DELETE', '/text/ab'), 400, 'invalid_path_parameter', 'id');
		expectError(await api('GET', '/queues/ab/items/abcdef'), 400, 'invalid_path_parameter', 'queueId');
		expectError(await api('GET', '/queues/main/items/ab'), 400, 'invalid_path_parameter', 'itemId');
		expectError(await api('GET', '/image/%E0%A4%A'), 400, 'invalid_path_parameter', 'id');
	});

	it('answers 404 for unknown ids', async () => {
		expectError(await api('GET', '/image/does-not-exist'), 404, 'not_found');
		expectError(await api('GET', '/text/does-not-exist'), 404, 'not_found');
		expectError(await api('DELETE', '/text/does-not-exist'), 404, 'not_found');
		expectError(await api('GET', '/queues/main/items/does-not-exist'), 404, 'not_found');
	});
});

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

describe('POST /image validation', () => {
	const png = makePng('x').toString('base64');
	const cases: Case[] = [
		['an array body', [SAFE_IMAGE_URL], 'invalid_body'],
		['a string body', 'hello', 'invalid_body'],
		['an unknown top-level key', { image: SAFE_IMAGE_URL, defer: true }, 'unknown_field', 'defer'],
		['no image', { options: {} }, 'missing_field', 'image'],
		['a number image', { image: 42 }, 'invalid_type', 'image'],
		['an empty image', { image: '' }, 'invalid_field', 'image'],
		['an image with spaces around', { image: ` ${SAFE_IMAGE_URL}` }, 'invalid_field', 'image'],
		['a data: URI', { image: `data:image/png;base64,${png}` }, 'invalid_field', 'image'],
		['an ftp URL', { image: 'ftp://img.test/cat.jpg' }, 'invalid_field', 'image'],
		['a broken http URL', { image: 'http://' }, 'invalid_field', 'image'],
		['text that is not base64', { image: 'not an image at all' }, 'invalid_field', 'image'],
		['unpadded base64', { image: png.replace(/=+$/, '') + 'A' }, 'invalid_field', 'image'],
		['base64 of a non-image', { image: Buffer.from('plain text file').toString('base64') }, 'invalid_field', 'image'],
		['a bad mock parameter', { image: `${SAFE_IMAGE_URL}?mock_risk=0` }, 'invalid_mock_parameter', 'image'],
		['an unknown mock parameter', { image: `${SAFE_IMAGE_URL}?mock_rsik=70` }, 'invalid_mock_parameter', 'image'],
		['options as an array', { image: SAFE_IMAGE_URL, options: [] }, 'invalid_type', 'options'],
		['options as null', { image: SAFE_IMAGE_URL, options: null }, 'invalid_type', 'options'],
		['an unknown option', { image: SAFE_IMAGE_URL, options: { callbackURL: 'http://x.test' } }, 'unknown_field', 'options.callbackURL'],
		['a non-string callbackUrl', { image: SAFE_IMAGE_URL, options: { callbackUrl: 5 } }, 'invalid_type', 'options.callbackUrl'],
		['a relative callbackUrl', { image: SAFE_IMAGE_URL, options: { callbackUrl: '/webhook/x' } }, 'invalid_field', 'options.callbackUrl'],
		['an ftp callbackUrl', { image: SAFE_IMAGE_URL, options: { callbackUrl: 'ftp://x.test/a' } }, 'invalid_field', 'options.callbackUrl'],
		['a string defer', { image: SAFE_IMAGE_URL, options: { defer: 'true' } }, 'invalid_type', 'options.defer'],
		['a number actorId', { image: SAFE_IMAGE_URL, options: { actorId: 7 } }, 'invalid_type', 'options.actorId'],
		['an empty actorId', { image: SAFE_IMAGE_URL, options: { actorId: '' } }, 'invalid_field', 'options.actorId'],
	];

	// Rows as objects: jest would take a missing 4th column for a done callback.
	it.each(asRows(cases))('refuses $name with 400', async ({ json, code, field }) => {
		const response = await api('POST', '/image', { json });
		expectError(response, 400, code, field);
		expect(mock.service.submissions.size).toBe(0);
	});

	it('accepts any JSON meta and returns it as stored', async () => {
		for (const meta of ['text', 12, null, [1, 'a'], { nested: { deep: true } }]) {
			const response = await api('POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { meta } } });
			expect(response.status).toBe(200);
			expect(response.body.meta).toEqual(meta);
		}
	});

	it('needs JSON: 415 for another content type, 400 for broken or empty JSON', async () => {
		const text = await api('POST', '/image', { raw: JSON.stringify({ image: SAFE_IMAGE_URL }), headers: { 'content-type': 'text/plain' } });
		expectError(text, 415, 'unsupported_media_type');
		const none = await api('POST', '/image', { raw: JSON.stringify({ image: SAFE_IMAGE_URL }) });
		expectError(none, 415, 'unsupported_media_type');
		const broken = await api('POST', '/image', { raw: '{"image":', headers: { 'content-type': 'application/json' } });
		expectError(broken, 400, 'invalid_json');
		expect(mock.service.requests.at(-1)?.body).toBe('{"image":');
		const empty = await api('POST', '/image', { raw: '', headers: { 'content-type': 'application/json; charset=utf-8' } });
		expectError(empty, 400, 'invalid_json');
	});

	it('answers 413 over maxBodyBytes', async () => {
		const small = await startMockService({ maxBodyBytes: 1000 });
		try {
			const response = await call(small.url, 'POST', '/image', { json: { image: makePng('a'.repeat(2000)).toString('base64') } });
			expectError(response, 413, 'payload_too_large');
		} finally {
			await small.stop();
		}
	});
});

describe('queues and texts', () => {
	it('processes a text item into a text moderation readable and deletable by id', async () => {
		const added = await api('POST', '/queues/main', { json: { type: 'text', content: PROFANE_TEXT, meta: 'm-1', actorId: 'a-1' } });
		expect(added.status).toBe(202);
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
		});

		const done = await waitFor('the item to be processed', async () => {
			const r = await api('GET', `/queues/main/items/${added.body.id}`);
			return r.body.status === 'pending' ? r : undefined;
		}, 2_000, 20);
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
			return r.body.status === 'pending' ? r : undefined;
		}, 2_000, 20);
		expect(done.body.moderation).toMatchObject({ isSafe: true, suggestedActions: { review: true, reject: false } });
		const image = await api('GET', `/image/${done.body.moderation.id}`);
		expect(image.body).toEqual(done.body.moderation);
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

describe('records', () => {
	it('records method, path, query, lower-cased headers, parsed body, status and time', async () => {
		const before = Date.now();
		await api('POST', '/image?trace=1', { json: { image: SAFE_IMAGE_URL }, headers: { 'X-Trace': 'abc' } });
		const record = mock.service.requests.at(-1)!;
		expect(record).toMatchObject({
			method: 'POST',
			path: '/image',
			query: { trace: '1' },
			body: { image: SAFE_IMAGE_URL },
			status: 200,
		});
		expect(record.headers['x-trace']).toBe('abc');
		expect(record.headers.authorization).toBe('Bearer test-token');
		expect(record.time).toBeGreaterThanOrEqual(before);
	});

	it('reset clears requests, callbacks and submissions', async () => {
		await api('POST', '/image', { json: { image: SAFE_IMAGE_URL } });
		expect(mock.service.requests.length).toBeGreaterThan(0);
		mock.service.reset();
		expect(mock.service.requests).toHaveLength(0);
		expect(mock.service.submissions.size).toBe(0);
		expect(mock.service.submissionLog).toHaveLength(0);
		expect(mock.service.callbacks).toHaveLength(0);
	});
});
