/**
 * What n8n does with a webhook request's body before the start node's webhook() runs (n8n 2.41.1
 * `webhooks/webhook-helpers.js` `parseRequestBody` and `middlewares/body-parser.js`; 1.123.81 does the
 * same, docs/callbacks.md), for production and waiting webhooks alike:
 * - the content type from n8n's own `parseIncomingMessage`, and `req.readRawBody()` to read the bytes once;
 * - a start node at typeVersion 1 (none of this package's: its nodes have no Binary Data option) gets
 *   every body read and parsed; above 1, only JSON, text, form and XML bodies are: any other type (none,
 *   octet-stream, a vendor type) reaches the node unread, no `rawBody`, no `body`;
 * - JSON parsed (malformed: 422 before the node runs), form as a query string, text as text.
 * Multipart and XML bodies are not modelled (n8n parses them with formidable and xml2js).
 */
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { parse as parseQueryString } from 'node:querystring';

type ContentTypeParser = (message: IncomingMessage) => void;

/** n8n's own content-type parsing (via n8n-core's copy of @n8n/backend-network). */
function loadParseIncomingMessage(): ContentTypeParser {
	const coreDir = path.dirname(require.resolve('n8n-core'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const network = require(require.resolve('@n8n/backend-network', { paths: [coreDir] })) as {
		parseIncomingMessage: ContentTypeParser;
	};
	return network.parseIncomingMessage;
}

const parseIncomingMessage = loadParseIncomingMessage();

export class N8nRefusal extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

/** n8n's `isParsableContentType`: the types it parses for a start node above version 1. */
export function isParsableContentType(contentType: string | undefined): boolean {
	if (!contentType) return false;
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

type ParsedRequest = IncomingMessage & { body?: unknown };

/** n8n's `rawBodyReader` middleware: the content type, and a `readRawBody()` that reads the bytes once. */
export function readableRequest(req: IncomingMessage): ParsedRequest {
	parseIncomingMessage(req);
	req.readRawBody = async () => {
		if (req.rawBody) return;
		if (req.destroyed || !req.readable) throw new N8nRefusal(400, 'Request body stream was aborted or is not readable');
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		req.rawBody = Buffer.concat(chunks);
		req._body = true;
	};
	return req;
}

/** `parseRequestBody` for a start node at `typeVersion`, on a request from `readableRequest`. */
export async function parseRequestBody(req: ParsedRequest, typeVersion: number): Promise<void> {
	if (typeVersion > 1 && !isParsableContentType(req.contentType)) return;
	await req.readRawBody();
	if (req.rawBody.length === 0) return;
	const text = req.rawBody.toString(req.encoding ?? 'utf-8');
	if (req.contentType === 'application/json') {
		try {
			req.body = JSON.parse(text);
		} catch (error) {
			throw new N8nRefusal(422, `Failed to parse request body: ${(error as Error).message}`);
		}
	} else if (req.contentType === 'application/x-www-form-urlencoded') {
		req.body = parseQueryString(text);
	} else if (req.contentType === 'text/plain') {
		req.body = text;
	}
}
