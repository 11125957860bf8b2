/**
 * The mock service behind a proxy that takes the callback URL out of every submission and keeps it: the
 * mock then works on a deferred result and calls back nobody, and a test plays the service's callbacks
 * itself (which body, in which order, how often). Every other request passes through unchanged, so the
 * mock's `requests` still count what the node asked of the service.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { MockService } from '../../dev/mock/server';

export interface SilentService {
	url: string;
	/** The callback URL each accepted submission carried, by the moderation id the service answered */
	callbackUrls: Map<string, string>;
	stop(): Promise<void>;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

export async function startSilentService(mock: MockService): Promise<SilentService> {
	const callbackUrls = new Map<string, string>();
	const server = createServer((req, res) => {
		void (async () => {
			let body: Buffer | undefined = await readAll(req);
			let callbackUrl: string | undefined;
			if (req.method === 'POST' && body.length > 0) {
				const json = JSON.parse(body.toString('utf8')) as { options?: { callbackUrl?: string; defer?: boolean } };
				callbackUrl = json.options?.callbackUrl;
				if (json.options && callbackUrl !== undefined) {
					delete json.options.callbackUrl;
					json.options.defer = true;
					body = Buffer.from(JSON.stringify(json));
				}
			}
			const headers = { ...req.headers } as Record<string, string>;
			delete headers.host;
			delete headers['content-length'];
			const answer = await fetch(`${mock.url}${req.url ?? '/'}`, {
				method: req.method,
				headers,
				body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
			});
			const text = await answer.text();
			if (callbackUrl !== undefined && answer.ok) callbackUrls.set((JSON.parse(text) as { id: string }).id, callbackUrl);
			res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
			res.end(text);
		})().catch((error: unknown) => {
			res.writeHead(502, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: String(error) } }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		callbackUrls,
		async stop() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
