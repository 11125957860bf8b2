/**
 * The benchmark's comparison rows must do what their labels say, or its ratios mean nothing: each one
 * sends one moderation per item (checked by the mock), returns them in order and paired, and the
 * connection behaviour the baseline labels name is real (keep-alive for (c), a new connection per request
 * for (c1) and for n8n's HTTP client alone). For our node (a) only what the node promises is checked (one
 * request per item, order, pairing): how n8n's client connects is n8n's business, not ours to pin.
 */
import dc from 'node:diagnostics_channel';

import {
	checkOutput,
	imageItems,
	runN8nHttpClient,
	runOurNode,
	runUndici,
	runUndiciNewConnection,
	type Target,
	type Workload,
} from './workloads';
import { sha256 } from '../../dev/mock/analysis';
import { startMockService, type MockService } from '../../dev/mock/server';

const ITEMS = 40;
const PARALLELISM = 4;

describe('benchmark workloads', () => {
	let mock: MockService;
	let target: Target;
	const sockets = new Set<unknown>();
	const onRequest = (message: unknown) => {
		sockets.add((message as { socket: unknown }).socket);
	};

	beforeAll(async () => {
		mock = await startMockService({ latencyMs: 1 });
		target = { url: mock.url, token: mock.token };
		dc.subscribe('http.server.request.start', onRequest);
	});

	afterAll(async () => {
		dc.unsubscribe('http.server.request.start', onRequest);
		await mock?.stop();
	});

	beforeEach(() => {
		mock.reset();
		sockets.clear();
	});

	const cases: Array<{ label: string; run: Workload; connections: 'reused' | 'one per request' | 'not pinned' }> = [
		{ label: '(a) our node', run: runOurNode, connections: 'not pinned' },
		{ label: '(c) raw undici', run: runUndici, connections: 'reused' },
		{ label: '(c1) raw undici, new connection per request', run: runUndiciNewConnection, connections: 'one per request' },
		{ label: "(h) n8n's HTTP client alone", run: runN8nHttpClient, connections: 'one per request' },
	];

	it.each(cases)('$label: one moderation per item, in order and paired; connections $connections', async ({ label, run, connections }) => {
		const items = imageItems(ITEMS, label.replace(/\W+/g, '-'));
		const out = await run(target, items, PARALLELISM);

		expect(() => checkOutput(out, ITEMS, label)).not.toThrow();
		// The service hashes a URL image's address: output i is the moderation of input i's URL.
		out.forEach((item, i) => expect(item.json.hash).toBe(sha256(String(items[i].json.url))));
		const posts = mock.requests.filter((r) => r.method === 'POST' && r.path === '/image');
		expect(posts).toHaveLength(ITEMS);
		expect(posts.every((r) => r.status === 200)).toBe(true);
		expect([...mock.submissions.values()].every((count) => count === 1)).toBe(true);

		if (connections === 'reused') expect(sockets.size).toBeLessThanOrEqual(PARALLELISM);
		if (connections === 'one per request') expect(sockets.size).toBe(ITEMS);
	});
});
