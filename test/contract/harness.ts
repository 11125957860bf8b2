/**
 * The contract's harness: the mock over HTTP with the vendor's secret key, and a receiver for callbacks.
 * Only HTTP and the mock's long-standing API (`startMockService`, `requests`, `whenIdle`) are used.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startMockService, type MockService } from '../../dev/mock/server';
import { shapeProblems } from './shape';
import {
	DEFERRED_ANSWER,
	ENDPOINTS,
	IMAGE_RESULT,
	METADATA_KEYS,
	QUEUE_ADD_ANSWER,
	QUEUE_ITEM,
	QUEUE_STATUSES_API,
	QUEUE_STATUSES_SDK,
	REQUEST_RULES,
	SDK_TEXT_RESULT,
	sdkHeaders,
	TEXT_RESULT,
	WEBHOOK_BODY,
	WEBHOOK_EVENTS,
	type Shape,
} from './vendor-facts';

export const SECRET_KEY = 'sk-contract-5d1f';
export const QUEUE = 'contract-queue';

export interface Received {
	method: string;
	headers: IncomingHttpHeaders;
	body: any;
}

export let mock: MockService;
let receiver: Server;
export let receiverUrl: string;
export const received: Received[] = [];

/** The mock and a receiver for its callbacks, for one test file. */
export function useContract(): void {
	beforeAll(async () => {
		mock = await startMockService({ processMs: 150, token: SECRET_KEY, callbackBackoffMs: 20 });
		receiver = createServer((req, res) => {
			let text = '';
			req.on('data', (chunk: Buffer) => (text += chunk.toString()));
			req.on('end', () => {
				let body: unknown = text;
				try {
					body = JSON.parse(text);
				} catch {
					// kept as text: the check on its shape says what is wrong
				}
				received.push({ method: req.method ?? '', headers: req.headers, body });
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/contentmod`;
	});

	afterAll(async () => {
		await mock?.stop();
		receiver?.closeAllConnections();
		await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
	});
}

/** One request as the vendor's documents show it: bearer secret key, JSON. */
export async function request(method: string, path: string, body?: unknown, secretKey = SECRET_KEY) {
	const response = await fetch(`${mock.url}${path}`, {
		method,
		headers: body === undefined ? { Authorization: `Bearer ${secretKey}` } : sdkHeaders(secretKey),
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let json: any;
	try {
		json = text === '' ? undefined : JSON.parse(text);
	} catch {
		json = text;
	}
	return { status: response.status, body: json };
}

export const idle = () => mock.whenIdle(30_000);

/** Waits until the receiver holds a body matching `pick`. */
export async function receivedBody(pick: (body: any) => boolean, timeoutMs = 5_000): Promise<Received> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = received.find((r) => pick(r.body));
		if (found) return found;
		if (Date.now() > deadline) throw new Error(`no matching callback arrived; received: ${JSON.stringify(received).slice(0, 500)}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

export function expectShape(value: unknown, shape: Shape): void {
	expect(shapeProblems(value, shape)).toEqual([]);
}

/** Ids the path placeholders of ENDPOINTS stand for, each obtained the documented way. */
export async function pathIds(): Promise<Record<string, string>> {
	const text = await request('POST', '/text', { text: 'an id for GET /text/{id}' });
	const image = await request('POST', '/image', { image: 'https://img.test/cat.jpg', options: { defer: true } });
	const item = await request('POST', `/queues/${QUEUE}`, { type: 'text', content: 'an item for GET' });
	await idle();
	return { text: text.body?.id, image: image.body?.id, queueItem: item.body?.id, queue: QUEUE };
}
