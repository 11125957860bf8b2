/** validation.ts and the JSON body rules of http.ts, through POST /image. */
import { call } from '../../../dev/mock/client';
import { makePng, SAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { startMockService } from '../../../dev/mock/server';
import { asRows, expectError, useMockApi, type Case } from './mock-api';

const { mock, api } = useMockApi();

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
		['base64 in the URL-safe alphabet', { image: `${png.slice(0, 40)}-${png.slice(41)}` }, 'invalid_field', 'image'],
		// After the PNG signature, so only the alphabet check refuses it; U+0141 is past a 128-entry table.
		['base64 with a character beyond ASCII', { image: `${png.slice(0, 40)}\u0141${png.slice(41)}` }, 'invalid_field', 'image'],
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
