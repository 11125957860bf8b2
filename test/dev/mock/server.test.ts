/** server.ts: start options, latency on every answer, the records tests read. */
import { connect } from 'node:net';

import { call } from '../../../dev/mock/client';
import { SAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { startMockService } from '../../../dev/mock/server';
import { useMockApi } from './mock-api';

const { mock, api } = useMockApi({ processMs: 20 });
beforeEach(() => {
	mock.service.configure({ latencyMs: 0, faultRate: 0, throttleRate: 0, rateLimit: 0, retryAfterSeconds: 1 });
});

const submit = (i: number, token?: string | null) =>
	call(mock.service.url, 'POST', '/image', { token, json: { image: SAFE_IMAGE_URL, options: { actorId: `actor-${i}` } } });

describe('startMockService', () => {
	it('listens on 127.0.0.1 with a free port and the default token', async () => {
		const plain = await startMockService();
		try {
			expect(plain.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(plain.url.endsWith(`:${plain.port}`)).toBe(true);
			expect(plain.token).toBe('test-token');
		} finally {
			await plain.stop();
		}
	});

	it('refuses out-of-range options', async () => {
		await expect(startMockService({ faultRate: 2 })).rejects.toThrow(/faultRate/);
		await expect(startMockService({ latencyMs: -1 })).rejects.toThrow(/latencyMs/);
		await expect(startMockService({ backlog: -1 })).rejects.toThrow(/backlog/);
	});

	/**
	 * What bench S1 runs into: while this process is busy (n8n preparing a round of requests), the kernel
	 * holds at most `backlog` connections for the mock; the SYNs of the others are dropped and sent again
	 * after Linux's initial RTO of 1 s.
	 */
	it.each([
		[1, 'most wait for a SYN retransmit'],
		[511, 'none waits'],
	])('listen backlog %i: 20 connections while the process is busy, %s', async (backlog) => {
		const service = await startMockService({ backlog });
		try {
			const { port } = service;
			const t0 = Date.now();
			const sockets = Array.from({ length: 20 }, () => connect(port, '127.0.0.1'));
			const connectedAfter = sockets.map(
				(socket) => new Promise<number>((resolve, reject) => socket.once('connect', () => resolve(Date.now() - t0)).once('error', reject)),
			);
			for (const busyUntil = Date.now() + 300; Date.now() < busyUntil; ); // the event loop held, as by a busy node
			const times = await Promise.all(connectedAfter);
			sockets.forEach((socket) => socket.destroy());
			const late = times.filter((ms) => ms >= 900).length;
			if (backlog === 1) expect(late).toBeGreaterThanOrEqual(10);
			else expect(late).toBe(0);
		} finally {
			await service.stop();
		}
	});
});

describe('latency', () => {
	it('delays every response, errors included, without serialising them', async () => {
		mock.service.configure({ latencyMs: 120 });
		for (const response of [await submit(0), await submit(1, null), await call(mock.service.url, 'GET', '/nowhere')]) {
			expect(response.durationMs).toBeGreaterThanOrEqual(110);
		}
		const started = Date.now();
		const parallel = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(10 + i)));
		expect(parallel.every((r) => r.status === 200)).toBe(true);
		expect(Date.now() - started).toBeLessThan(1_200); // 20 x 120 ms one after another would be 2.4 s
	});

	it('applies latencyMs from the start options', async () => {
		const slow = await startMockService({ latencyMs: 80 });
		try {
			const response = await call(slow.url, 'GET', '/image/00000000-0000-4000-8000-000000000000');
			expect(response.status).toBe(404);
			expect(response.durationMs).toBeGreaterThanOrEqual(70);
		} finally {
			await slow.stop();
		}
	});
});

describe('textModerateMs', () => {
	it('makes an immediate POST /text work that long before answering, in parallel, added to the latency; nothing else waits', async () => {
		// Margins of a second and more: the test runs beside others on a loaded 2-core machine.
		mock.service.configure({ textModerateMs: 1_500, latencyMs: 50 });
		try {
			const text = (i: number, options?: object) => api('POST', '/text', { json: { text: `hello ${i}`, options } });
			const one = await text(0);
			expect(one.status).toBe(200);
			expect(one.durationMs).toBeGreaterThanOrEqual(1_540);
			const started = Date.now();
			const parallel = await Promise.all(Array.from({ length: 20 }, (_, i) => text(i + 1)));
			expect(parallel.every((r) => r.status === 200 && typeof (r.body as { id?: unknown }).id === 'string')).toBe(true);
			expect(Date.now() - started).toBeLessThan(6_000); // 20 x 1.55 s one after another would be 31 s
			// A deferred text answers { id } after the latency alone; so does an image.
			const deferred = await text(99, { defer: true });
			expect(deferred.durationMs).toBeLessThan(1_000);
			expect((await submit(0)).durationMs).toBeLessThan(1_000);
		} finally {
			mock.service.configure({ textModerateMs: 0, latencyMs: 0 });
		}
	});

	it('defaults to 0 and refuses a negative value', async () => {
		expect((await api('POST', '/text', { json: { text: 'quick' } })).durationMs).toBeLessThan(200);
		await expect(startMockService({ textModerateMs: -1 })).rejects.toThrow(/textModerateMs/);
	});
});

describe('records', () => {
	it('records method, path, query, lower-cased headers, parsed body, status and time', async () => {
		const before = Date.now();
		await api('POST', '/image?trace=1', { json: { image: SAFE_IMAGE_URL }, headers: { 'X-Trace': 'abc' } });
		const record = mock.service.requests.at(-1)!;
		expect(record).toMatchObject({
			method: 'POST',
			path: '/image',
			query: { trace: '1' },
			body: { image: SAFE_IMAGE_URL },
			status: 200,
		});
		expect(record.headers['x-trace']).toBe('abc');
		expect(record.headers.authorization).toBe('Bearer test-token');
		expect(record.time).toBeGreaterThanOrEqual(before);
	});

	it('reset clears requests, callbacks and submissions', async () => {
		await api('POST', '/image', { json: { image: SAFE_IMAGE_URL } });
		expect(mock.service.requests.length).toBeGreaterThan(0);
		mock.service.reset();
		expect(mock.service.requests).toHaveLength(0);
		expect(mock.service.submissions.size).toBe(0);
		expect(mock.service.submissionLog).toHaveLength(0);
		expect(mock.service.callbacks).toHaveLength(0);
	});
});

describe('traffic', () => {
	it('counts requests in flight at the service, and their peak', async () => {
		mock.service.configure({ latencyMs: 100 });
		const pending = Promise.all(Array.from({ length: 6 }, (_, i) => submit(i)));
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(mock.service.traffic.inFlight).toBe(6);
		await pending;
		expect(mock.service.traffic).toEqual({ inFlight: 0, peakInFlight: 6 });
		await Promise.all([submit(10), submit(11)]);
		expect(mock.service.traffic.peakInFlight).toBe(6);
		mock.service.reset();
		expect(mock.service.traffic.peakInFlight).toBe(0);
	});
});
