import { call } from '../../../dev/mock/client';
import {
	makePng,
	mockImageUrl,
	PROFANE_TEXT,
	PROFANE_TEXT_FILTERED,
	SAFE_IMAGE_URL,
	SAFE_TEXT,
	UNSAFE_IMAGE_URL,
} from '../../../dev/mock/fixtures';
import { DEFAULT_OPTIONS } from '../../../dev/mock/options';
import { startMockService } from '../../../dev/mock/server';
import { freePort } from '../../../dev/ports';
import { useMock } from '../../helpers/mock';
import { startReceiver } from './mock-api';

const mock = useMock({ processMs: 150, callbackRetries: 3, callbackBackoffMs: 50, token: 'test-token' });

describe('deferred image moderation', () => {
	it('answers 200 {id}, reads 200 "processing" until processMs, then the full result without id', async () => {
		// Long enough that the read right after the submission comes first on a loaded machine too.
		mock.service.configure({ processMs: 2_000 });
		const started = Date.now();
		const submitted = await call(mock.service.url, 'POST', '/image', { json: { image: UNSAFE_IMAGE_URL, options: { defer: true } } });
		// A job keeps the processing time it was submitted with.
		mock.service.configure({ processMs: 150 });
		expect(submitted.status).toBe(200);
		expect(Object.keys(submitted.body)).toEqual(['id']);
		const id = submitted.body.id;

		const early = await call(mock.service.url, 'GET', `/image/${id}`);
		expect(early.status).toBe(200);
		expect(early.body).toEqual({ id, status: 'processing' });

		await mock.service.whenIdle(30_000);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
		const done = await call(mock.service.url, 'GET', `/image/${id}`);
		expect(done.status).toBe(200);
		expect(done.body).toMatchObject({ isSafe: false, suggestedActions: { reject: true } });
		expect(done.body).not.toHaveProperty('id');
		expect(mock.service.callbacks).toHaveLength(0);
	});

	it('defers when only a callbackUrl is given, and POSTs {event: "moderation.completed", data: result with id} there', async () => {
		const receiver = await startReceiver();
		try {
			const meta = { ticket: 'T-1' };
			const submitted = await call(mock.service.url, 'POST', '/image', {
				json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url, meta, defer: false } },
			});
			expect(submitted.status).toBe(200);
			expect(submitted.body).toEqual({ id: expect.any(String) });
			await mock.service.whenIdle(30_000);

			expect(receiver.deliveries).toHaveLength(1);
			const delivery = receiver.deliveries[0];
			expect(delivery.headers['content-type']).toBe('application/json');
			expect(delivery.headers['user-agent']).toMatch(/content-moderation-mock/);
			expect(delivery.headers.authorization).toBeUndefined();
			const read = await call(mock.service.url, 'GET', `/image/${submitted.body.id}`);
			expect(Object.keys(delivery.body)).toEqual(['event', 'data']);
			expect(delivery.body.event).toBe('moderation.completed');
			expect(delivery.body.data).toEqual({ id: submitted.body.id, ...read.body });
			expect(delivery.body.data).toMatchObject({ meta, isSafe: true });
			expect(mock.service.callbacks).toEqual([
				expect.objectContaining({
					moderationId: submitted.body.id,
					event: 'moderation.completed',
					url: receiver.url,
					attempt: 1,
					status: 200,
					ok: true,
				}),
			]);
		} finally {
			await receiver.stop();
		}
	});

	it.each(['application/octet-stream', null])('sends callbacks as %s when told to (callbackContentType), the body unchanged', async (contentType) => {
		const receiver = await startReceiver();
		mock.service.configure({ callbackContentType: contentType });
		try {
			const submitted = await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url } } });
			await mock.service.whenIdle(2_000);
			expect(receiver.deliveries).toHaveLength(1);
			expect(receiver.deliveries[0].headers['content-type']).toBe(contentType ?? undefined);
			expect(receiver.deliveries[0].body).toMatchObject({ event: 'moderation.completed', data: { id: submitted.body.id } });
		} finally {
			mock.service.configure({ callbackContentType: 'application/json' });
			await receiver.stop();
		}
	});

	it('retries a failing receiver with exponential backoff and records every attempt', async () => {
		const receiver = await startReceiver((n) => (n <= 2 ? 500 : 204));
		try {
			const submitted = await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url } } });
			await mock.service.whenIdle(30_000);
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
			expect(new Set(receiver.deliveries.map((d) => d.body.data.id))).toEqual(new Set([submitted.body.id]));
		} finally {
			await receiver.stop();
		}
	});

	it('gives up after callbackRetries retries', async () => {
		const receiver = await startReceiver(() => 503);
		try {
			await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url } } });
			await mock.service.whenIdle(30_000);
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
			await mock.service.whenIdle(30_000);
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
		// The receiver answers none until all 200 are in flight together, which deliveries sent one after
		// another never are; an attempt waits as long as that takes on a loaded machine.
		mock.service.configure({ callbackTimeoutMs: 120_000 });
		const receiver = await startReceiver(() => 200, 200);
		try {
			const submitted = await Promise.all(
				Array.from({ length: 200 }, (_, i) =>
					call(mock.service.url, 'POST', '/image', {
						json: { image: makePng(`item ${i}`).toString('base64'), options: { callbackUrl: receiver.url, actorId: `actor-${i}` } },
					}),
				),
			);
			expect(submitted.every((r) => r.status === 200)).toBe(true);
			await mock.service.whenIdle(60_000);
			expect(receiver.maxActive()).toBe(200);
			expect(mock.service.callbacks.every((attempt) => attempt.attempt === 1 && attempt.ok)).toBe(true);
			expect(new Set(receiver.deliveries.map((d) => d.body.data.id)).size).toBe(200);
			expect([...mock.service.submissions].filter(([key]) => key.startsWith('actor:')).every(([, n]) => n === 1)).toBe(true);
			expect(mock.service.submissionLog).toHaveLength(200);
		} finally {
			mock.service.configure({ callbackTimeoutMs: DEFAULT_OPTIONS.callbackTimeoutMs });
			await receiver.stop();
		}
	}, 90_000);

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

describe('deferred text moderation', () => {
	it('answers 200 {id} with defer, reads 200 "processing" until textProcessMs, then the full text result', async () => {
		mock.service.configure({ textProcessMs: 300 });
		try {
			const submitted = await call(mock.service.url, 'POST', '/text', { json: { text: PROFANE_TEXT, options: { defer: true } } });
			expect(submitted.status).toBe(200);
			expect(Object.keys(submitted.body)).toEqual(['id']);
			const id = submitted.body.id;
			const early = await call(mock.service.url, 'GET', `/text/${id}`);
			expect(early.status).toBe(200);
			expect(early.body).toEqual({ id, status: 'processing' });
			await mock.service.whenIdle(30_000);
			const done = await call(mock.service.url, 'GET', `/text/${id}`);
			expect(done.status).toBe(200);
			expect(done.body).toMatchObject({ id, isSafe: false, filteredContent: PROFANE_TEXT_FILTERED });
			expect(mock.service.callbacks).toHaveLength(0);
		} finally {
			mock.service.configure({ textProcessMs: null });
		}
	});

	it('POSTs {event: "moderation.completed", data: the text result} to a callbackUrl, as GET /text/{id} reads it', async () => {
		const receiver = await startReceiver();
		try {
			const submitted = await call(mock.service.url, 'POST', '/text', {
				json: { text: SAFE_TEXT, options: { callbackUrl: receiver.url, metadata: { post: 3 }, bannedWords: ['park'] } },
			});
			expect(submitted.status).toBe(200);
			expect(submitted.body).toEqual({ id: expect.any(String) });
			await mock.service.whenIdle(30_000);
			expect(receiver.deliveries).toHaveLength(1);
			const read = await call(mock.service.url, 'GET', `/text/${submitted.body.id}`);
			expect(receiver.deliveries[0].body).toEqual({ event: 'moderation.completed', data: read.body });
			expect(read.body).toMatchObject({ id: submitted.body.id, meta: { post: 3 }, isSafe: false });
			expect(read.body.filteredContent).toContain('the **** with');
			expect(mock.service.callbacks).toEqual([expect.objectContaining({ moderationId: submitted.body.id, event: 'moderation.completed', ok: true })]);
		} finally {
			await receiver.stop();
		}
	});
});

describe('stop', () => {
	it('cancels pending jobs and closes without delivering', async () => {
		const receiver = await startReceiver();
		const short = await startMockService({ processMs: 300 });
		try {
			const submitted = await call(short.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url } } });
			expect(submitted.status).toBe(200);
			const before = Date.now();
			await short.stop();
			expect(Date.now() - before).toBeLessThan(1_000);
			await new Promise((resolve) => setTimeout(resolve, 400));
			expect(receiver.deliveries).toHaveLength(0);
			await expect(call(short.url, 'GET', '/image/00000000-0000-4000-8000-000000000000')).rejects.toThrow();
		} finally {
			await short.stop();
			await receiver.stop();
		}
	});
});
