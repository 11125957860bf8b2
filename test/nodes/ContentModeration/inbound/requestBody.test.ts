/**
 * readCallbackBody: the callback body whatever its content type, on requests prepared the way n8n prepares
 * them for a start node at version 2 (this package's) and at version 1 (test/helpers/engine/n8nBodyParsing.ts).
 * At 2, n8n leaves a body of a type it does not parse unread: the node reads the bytes itself.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IWebhookFunctions } from 'n8n-workflow';

import { readCallbackBody } from '@package/nodes/ContentModeration/inbound/requestBody';
import { parseRequestBody, readableRequest } from '@test/helpers/engine/n8nBodyParsing';

interface Seen {
	read: Awaited<ReturnType<typeof readCallbackBody>>;
	/** Whether n8n had read the bytes before the node ran */
	readByN8n: boolean;
}

/** POSTs `body` with `contentType` (null: none) to a server that prepares it as n8n does for `typeVersion`. */
async function receive(typeVersion: number, body: string, contentType: string | null): Promise<Seen> {
	let seen: Seen | undefined;
	const server = createServer((req, res) => {
		void (async () => {
			const request = readableRequest(req) as IncomingMessage & { body?: unknown };
			await parseRequestBody(request, typeVersion);
			const readByN8n = Buffer.isBuffer(request.rawBody);
			const context = { getRequestObject: () => request, getBodyData: () => request.body } as unknown as IWebhookFunctions;
			seen = { read: await readCallbackBody.call(context), readByN8n };
			res.end('ok');
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const headers: Record<string, string> = contentType === null ? {} : { 'content-type': contentType };
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
		// Bytes, not a string: fetch would add text/plain to a string sent without a content type.
		const res = await fetch(url, { method: 'POST', headers, body: new TextEncoder().encode(body) });
		await res.text();
	} finally {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
	if (seen === undefined) throw new Error('the server saw no request');
	return seen;
}

const JSON_TEXT = JSON.stringify({ event: 'moderation.completed', data: { id: 'abc', isSafe: true } });

describe.each([2, 1])('a start node at typeVersion %d', (typeVersion) => {
	test('application/json: n8n parsed it, and that is what is read', async () => {
		const seen = await receive(typeVersion, JSON_TEXT, 'application/json');
		expect(seen.read).toEqual({ body: JSON.parse(JSON_TEXT), parsedJson: true });
	});

	test.each(['text/plain', 'application/x-www-form-urlencoded'])('%s: n8n read the bytes; they are read as sent', async (contentType) => {
		const seen = await receive(typeVersion, JSON_TEXT, contentType);
		expect(seen.readByN8n).toBe(true);
		expect(seen.read).toEqual({ body: JSON_TEXT, parsedJson: false });
	});

	test.each(['application/octet-stream', 'application/vnd.moderation+json', null])('%s: the bytes are read as sent', async (contentType) => {
		const seen = await receive(typeVersion, JSON_TEXT, contentType);
		// n8n leaves these unread above version 1 (the case readCallbackBody reads them itself).
		expect(seen.readByN8n).toBe(typeVersion === 1);
		expect(seen.read).toEqual({ body: JSON_TEXT, parsedJson: false });
	});

	test('an empty body is empty text', async () => {
		expect((await receive(typeVersion, '', 'application/octet-stream')).read).toEqual({ body: '', parsedJson: false });
		expect((await receive(typeVersion, '', 'application/json')).read).toEqual({ body: '', parsedJson: false });
	});
});
