/** Where the service's callbacks arrive during a contract run: every POST recorded as it came, answered 200. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
	method: string;
	/** The path the sender called (`.../request` for a Callback URL, `.../account` for the account webhook) */
	path: string;
	query: URLSearchParams;
	contentType: string;
	body: any;
}

export interface Receiver {
	/** http://127.0.0.1:<port> */
	localUrl: string;
	deliveries: Delivery[];
	/** The first delivery `pick` accepts, waiting at most `timeoutMs`; undefined when none came. */
	waitFor(pick: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery | undefined>;
	stop(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
	const deliveries: Delivery[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body: unknown = text;
			try {
				body = JSON.parse(text);
			} catch {
				// kept as text: the line that reads it says what it is
			}
			const url = new URL(req.url ?? '/', 'http://receiver');
			deliveries.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, contentType: String(req.headers['content-type'] ?? ''), body });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	return {
		localUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		deliveries,
		async waitFor(pick, timeoutMs) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const found = deliveries.find(pick);
				if (found || Date.now() > deadline) return found;
				await new Promise((resolve) => setTimeout(resolve, 25));
			}
		},
		async stop() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** `base` with `segment` appended to its path (its query kept). */
export function underPath(base: string, segment: string): string {
	const url = new URL(base);
	url.pathname = `${url.pathname.replace(/\/+$/, '')}/${segment}`;
	return url.toString();
}
