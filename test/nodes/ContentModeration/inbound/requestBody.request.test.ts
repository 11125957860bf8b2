/** readCallbackBody and mediaType (inbound/requestBody.ts) on requests made by hand: which bytes are read and when. */
import type { IWebhookFunctions } from 'n8n-workflow';

import { mediaType, readCallbackBody } from '@package/nodes/ContentModeration/inbound/requestBody';

interface FakeRequest {
	contentType?: string;
	headers: Record<string, string>;
	rawBody?: Buffer;
	readRawBody?: () => Promise<void>;
}

/** Reads the body of `request` (n8n's parse: `parsed`); how often the raw bytes were read. */
async function read(request: FakeRequest, parsed: unknown) {
	let reads = 0;
	const body = request.rawBody;
	if (request.readRawBody !== undefined)
		request.readRawBody = async () => {
			reads++;
			request.rawBody = body ?? Buffer.from('{"late":true}');
		};
	const context = {
		getRequestObject: () => request,
		getBodyData: () => parsed,
	} as unknown as IWebhookFunctions;
	return { read: await readCallbackBody.call(context), reads };
}

test('mediaType: the type before any parameter, trimmed, lower case; nothing is empty', () => {
	expect(mediaType('Application/JSON ; charset=utf-8')).toBe('application/json');
	expect(mediaType(' text/plain')).toBe('text/plain');
	expect(mediaType(undefined)).toBe('');
	expect(mediaType(null)).toBe('');
});

test("without n8n's content type the header says it: JSON n8n parsed is taken as parsed", async () => {
	const request = {
		headers: { 'content-type': 'Application/Json; charset=utf-8' },
		rawBody: Buffer.from('{"a":1}'),
	};
	expect((await read(request, { a: 1 })).read).toStrictEqual({
		body: { a: 1 },
		parsedJson: true,
	});
	const typed = {
		contentType: 'text/plain',
		headers: { 'content-type': 'application/json' },
		rawBody: Buffer.from('{"a":1}'),
	};
	expect((await read(typed, { a: 1 })).read).toStrictEqual({
		body: '{"a":1}',
		parsedJson: false,
	});
});

test('bytes not read yet are read once, unless the body was multipart (consumed) or there is no reader', async () => {
	const unread = await read(
		{
			contentType: 'application/octet-stream',
			headers: {},
			readRawBody: async () => {},
		},
		undefined,
	);
	expect(unread).toStrictEqual({
		read: { body: '{"late":true}', parsedJson: false },
		reads: 1,
	});
	const multipart = await read(
		{
			contentType: 'multipart/form-data',
			headers: {},
			readRawBody: async () => {},
		},
		{ a: '1' },
	);
	expect(multipart).toStrictEqual({
		read: { body: '', parsedJson: false },
		reads: 0,
	});
	const already = await read(
		{
			contentType: 'text/plain',
			headers: {},
			rawBody: Buffer.from('x'),
			readRawBody: async () => {},
		},
		'x',
	);
	expect(already.reads).toBe(0);
	await expect(
		readCallbackBody.call({
			getRequestObject: () => ({ contentType: 'text/plain', headers: {} }),
			getBodyData: () => undefined,
		} as unknown as IWebhookFunctions),
	).resolves.toStrictEqual({ body: '', parsedJson: false });
});

test("n8n's parse of JSON is taken unless the bytes were blank; a parsed text is taken as text", async () => {
	expect((await read({ contentType: 'application/json', headers: {} }, { a: 1 })).read).toStrictEqual({
		body: { a: 1 },
		parsedJson: true,
	});
	expect(
		(
			await read(
				{
					contentType: 'application/json',
					headers: {},
					rawBody: Buffer.from(' \n'),
				},
				{},
			)
		).read,
	).toStrictEqual({ body: ' \n', parsedJson: false });
	expect(
		(
			await read(
				{
					contentType: 'application/json',
					headers: {},
					rawBody: Buffer.from('{}'),
				},
				undefined,
			)
		).read,
	).toStrictEqual({ body: '{}', parsedJson: false });
	expect(
		(await read({ contentType: 'text/plain', headers: {}, rawBody: Buffer.from('raw') }, 'parsed')).read,
	).toStrictEqual({ body: 'parsed', parsedJson: false });
	expect(
		(await read({ contentType: 'text/plain', headers: {}, rawBody: Buffer.from('raw') }, { a: 1 })).read,
	).toStrictEqual({ body: 'raw', parsedJson: false });
});
