import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { call } from '../../../dev/mock/client';
import { makePng, mockImageUrl, SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { startMockService } from '../../../dev/mock/server';
import { freePort } from '../../../dev/ports';
import { useMock } from '../../helpers/mock';

interface Delivery {
	headers: IncomingMessage['headers'];
	body: any;
	at: number;
}

/** A callback receiver on 127.0.0.1: `answer` picks the status of the n-th delivery (1-based). */
async function startReceiver(answer: (n: number) => number = () => 200, holdMs = 0) {
	const deliveries: Delivery[] = [];
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
			setTimeout(() => {
				active--;
				res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
			}, holdMs);
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

const mock = useMock({ processMs: 150, callbackRetries: 3, callbackBackoffMs: 50, token: 'test-token' });

describe('deferred image moderation', () => {
	it('answers 202 {id}, reads "processing" until processMs, then the full result', async () => {
		const submitted = await call(mock.service.url, 'POST', '/image', { json: { image: UNSAFE_IMAGE_URL, options: { defer: true } } });
		expect(submitted.status).toBe(202);
		expect(Object.keys(submitted.body)).toEqual(['id']);
		const id = submitted.body.id;
		const started = Date.now();

		const early = await call(mock.service.url, 'GET', `/image/${id}`);
		expect(early.status).toBe(202);
		expect(early.body).toEqual({ id, status: 'processing' });

		await mock.service.whenIdle(2_000);
		expect(Date.now() - started).toBeGreaterThanOrEqual(100);
		const done = await call(mock.service.url, 'GET', `/image/${id}`);
		expect(done.status).toBe(200);
		expect(done.body).toMatchObject({ id, isSafe: false, suggestedActions: { reject: true } });
		expect(mock.service.callbacks).toHaveLength(0);
	});

	it('defers when only a callbackUrl is given, and POSTs the result there as JSON', async () => {
		const receiver = await startReceiver();
		try {
			const meta = { ticket: 'T-1' };
			const submitted = await call(mock.service.url, 'POST', '/image', {
				json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url, meta, defer: false } },
			});
			expect(submitted.status).toBe(202);
			expect(submitted.body).toEqual({ id: expect.any(String) });
			await mock.service.whenIdle(2_000);

			expect(receiver.deliveries).toHaveLength(1);
			const delivery = receiver.deliveries[0];
			expect(delivery.headers['content-type']).toBe('application/json');
			expect(delivery.headers['user-agent']).toMatch(/content-moderation-mock/);
			expect(delivery.headers.authorization).toBeUndefined();
			const read = await call(mock.service.url, 'GET', `/image/${submitted.body.id}`);
			expect(delivery.body).toEqual(read.body);
			expect(delivery.body).toMatchObject({ id: submitted.body.id, meta, isSafe: true });
			expect(mock.service.callbacks).toEqual([
				expect.objectContaining({ moderationId: submitted.body.id, url: receiver.url, attempt: 1, status: 200, ok: true }),
			]);
		} finally {
			await receiver.stop();
		}
	});

	it('retries a failing receiver with exponential backoff and records every attempt', async () => {
		const receiver = await startReceiver((n) => (n <= 2 ? 500 : 204));
		try {
			const submitted = await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url } } });
			await mock.service.whenIdle(3_000);
			expect(receiver.deliveries).toHaveLength(3);
			expect(mock.service.callbacks.map((a) => [a.attempt, a.status, a.ok])).toEqual([
				[1, 500, false],
				[2, 500, false],
				[3, 204, true],
			]);
			expect(mock.service.callbacks.every((a) => a.moderationId === submitted.body.id)).toBe(true);
			const [first, second, third] = receiver.deliveries.map((d) => d.at);
			expect(second - first).toBeGreaterThanOrEqual(45); // backoff 50 ms
			expect(third - second).toBeGreaterThanOrEqual(95); // then 100 ms
			expect(new Set(receiver.deliveries.map((d) => d.body.id))).toEqual(new Set([submitted.body.id]));
		} finally {
			await receiver.stop();
		}
	});

	it('gives up after callbackRetries retries', async () => {
		const receiver = await startReceiver(() => 503);
		try {
			await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url } } });
			await mock.service.whenIdle(3_000);
			expect(receiver.deliveries).toHaveLength(4);
			expect(mock.service.callbacks.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
			expect(mock.service.callbacks.every((a) => a.status === 503 && !a.ok)).toBe(true);
		} finally {
			await receiver.stop();
		}
	});

	it('records network errors and retries them', async () => {
		const url = `http://127.0.0.1:${await freePort()}/gone`;
		mock.service.configure({ callbackRetries: 1 });
		try {
			await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: url } } });
			await mock.service.whenIdle(3_000);
			expect(mock.service.callbacks).toHaveLength(2);
			for (const attempt of mock.service.callbacks) {
				expect(attempt.status).toBeUndefined();
				expect(attempt.error).toBe('ECONNREFUSED');
			}
		} finally {
			mock.service.configure({ callbackRetries: 3 });
		}
	});

	it('delivers 200 callbacks due at once concurrently', async () => {
		const receiver = await startReceiver(() => 200, 500);
		try {
			const submitted = await Promise.all(
				Array.from({ length: 200 }, (_, i) =>
					call(mock.service.url, 'POST', '/image', {
						json: { image: makePng(`item ${i}`).toString('base64'), options: { callbackUrl: receiver.url, actorId: `actor-${i}` } },
					}),
				),
			);
			expect(submitted.every((r) => r.status === 202)).toBe(true);
			const started = Date.now();
			await mock.service.whenIdle(10_000);
			// Serialised, 200 deliveries held 500 ms each would take 100 s and never overlap.
			expect(Date.now() - started).toBeLessThan(5_000);
			expect(receiver.maxActive()).toBeGreaterThanOrEqual(50);
			expect(new Set(receiver.deliveries.map((d) => d.body.id)).size).toBe(200);
			expect([...mock.service.submissions].filter(([key]) => key.startsWith('actor:')).every(([, n]) => n === 1)).toBe(true);
			expect(mock.service.submissionLog).toHaveLength(200);
		} finally {
			await receiver.stop();
		}
	});

	it('reads exact numbers from mock_ query parameters, equal to a threshold', async () => {
		const url = mockImageUrl({ risk: 70, safe: false, review: true, reject: false, categories: { violence_gore: 70 } });
		const response = await call(mock.service.url, 'POST', '/image', { json: { image: url } });
		expect(response.body).toMatchObject({
			isSafe: false,
			riskScores: { overall: 70 },
			nsfwCategories: [{ category: 'violence_gore', severity: 70 }],
			suggestedActions: { review: true, reject: false },
		});
	});
});

describe('stop', () => {
	it('cancels pending jobs and closes without delivering', async () => {
		const receiver = await startReceiver();
		const short = await startMockService({ processMs: 300 });
		try {
			const submitted = await call(short.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url } } });
			expect(submitted.status).toBe(202);
			const before = Date.now();
			await short.stop();
			expect(Date.now() - before).toBeLessThan(1_000);
			await new Promise((resolve) => setTimeout(resolve, 400));
			expect(receiver.deliveries).toHaveLength(0);
			await expect(call(short.url, 'GET', '/image/abcdef')).rejects.toThrow();
		} finally {
			await short.stop();
			await receiver.stop();
		}
	});
});
