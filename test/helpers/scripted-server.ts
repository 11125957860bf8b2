/**
 * A tiny local HTTP server with scripted answers, for cases the mock service does not produce
 * (500s, a 404 while polling). Listens on 127.0.0.1 only; records every request.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: unknown;
}

export interface ScriptedReply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** Sent as is instead of `body` as JSON, with this content type (text, HTML, a cut JSON). */
	raw?: { text: string; contentType: string };
	/** Closes the connection without an answer (a reset after the request was read). */
	hangUp?: boolean;
	/** Answers only after this long (a slow service). */
	delayMs?: number;
}

export interface ScriptedServer {
	url: string;
	requests: ScriptedRequest[];
	stop(): Promise<void>;
}

export async function startScriptedServer(
	answer: (request: ScriptedRequest, index: number) => ScriptedReply,
): Promise<ScriptedServer> {
	const requests: ScriptedRequest[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			const request: ScriptedRequest = {
				method: req.method ?? '',
				path: req.url ?? '',
				headers: req.headers,
				body: text === '' ? undefined : (JSON.parse(text) as unknown),
			};
			requests.push(request);
			const reply = answer(request, requests.length - 1);
			if (reply.delayMs !== undefined) setTimeout(() => send(reply), reply.delayMs).unref();
			else send(reply);
		});
		const send = (reply: ScriptedReply) => {
			if (reply.hangUp) {
				req.socket.destroy();
				return;
			}
			if (reply.raw) {
				res.writeHead(reply.status, { ...reply.headers, 'content-type': reply.raw.contentType });
				res.end(reply.raw.text);
				return;
			}
			res.writeHead(reply.status, { ...reply.headers, 'content-type': 'application/json' });
			res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
		};
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		stop: async () => {
			server.closeAllConnections();
			server.close();
			await once(server, 'close');
		},
	};
}
