/** Shared by the mock's endpoint tests: one mock per file, requests to it, and the error shape every refusal has. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { call, type CallOptions } from '../../../dev/mock/client';
import { useMock } from '../../helpers/mock';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A mock for this test file (token `test-token`, the client's default) and `api(method, path)` against it. */
export function useMockApi(options: Parameters<typeof useMock>[0] = {}) {
	const mock = useMock({ token: 'test-token', ...options });
	const api = (method: string, path: string, callOptions?: CallOptions) => call(mock.service.url, method, path, callOptions);
	return { mock, api };
}

export type Case = [name: string, json: unknown, code: string, field?: string];
export function asRows(cases: Case[]) {
	return cases.map(([name, json, code, field]) => ({ name, json, code, field }));
}

export function expectError(response: { status: number; body: any }, status: number, code: string, field?: string) {
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

export interface Delivery {
	headers: IncomingMessage['headers'];
	body: any;
	at: number;
}

/** A callback receiver on 127.0.0.1: `answer` picks the status of the n-th delivery (1-based). */
export async function startReceiver(answer: (n: number) => number = () => 200, holdUntilActive = 0) {
	const deliveries: Delivery[] = [];
	const held: Array<() => void> = [];
	let active = 0;
	let maxActive = 0;
	const server: Server = createServer((req, res) => {
		active++;
		maxActive = Math.max(maxActive, active);
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			deliveries.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()), at: Date.now() });
			const status = answer(deliveries.length);
			// With holdUntilActive, nothing is answered until that many deliveries are in flight together.
			held.push(() => {
				active--;
				res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
			});
			if (active >= holdUntilActive) for (const release of held.splice(0)) release();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/abc/callback`;
	return {
		url,
		deliveries,
		maxActive: () => maxActive,
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
