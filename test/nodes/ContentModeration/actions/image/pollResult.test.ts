/**
 * Image > Moderate, Mode "Wait for Result" (pollResult.ts): GET /image/{id} until processed, through
 * n8n-core's engine against the mock service.
 */
import { imagePosts as imagePostsOf, moderateImage } from '@test/helpers/parameters';
import { startScriptedServer } from '@test/helpers/scripted-server';
import { SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { nodeError, output, useMock } from '@test/helpers/nodeRun';
import { NodeApiError } from 'n8n-workflow';

import { pollResult, pollUntil } from '@package/nodes/ContentModeration/actions/image/pollResult';
import { executeContext, fakeRun, rejection } from '@test/helpers/operationFakes';
import { contentModerationNode } from '@test/helpers/fixtures';
import type { Clock } from '@package/nodes/ContentModeration/helpers/clock';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { imageResult } from '@test/helpers/callbackBodies';

const mock = useMock();

const moderate = moderateImage;
const imagePosts = () => imagePostsOf(mock.service);

describe('Image > Moderate, deferredWait', () => {
	it('deferredWait: polls GET /image/{id}, sees it processing first, then outputs the result with its id', async () => {
		// Processing well beyond one interval, so that a slow machine still reads it processing at least once.
		mock.service.configure({ processMs: 600 });
		const run = await mock.run(
			moderate({ imageUrl: UNSAFE_IMAGE_URL, mode: 'deferredWait', pollInterval: 0.1, waitTimeout: 10 }),
		);
		expect(run.status).toBe('success');
		const [item] = output(run);
		expect(item.json.isSafe).toBe(false);
		expect(imagePosts()[0].body).toEqual({ image: UNSAFE_IMAGE_URL, options: { defer: true } });
		const polls = mock.service.requests.filter((r) => r.method === 'GET');
		// The service answers 200 while processing too: readiness is the result's isSafe, not the status.
		expect(polls.every((p) => p.status === 200)).toBe(true);
		expect(polls.length).toBeGreaterThan(1);
		expect(item.json.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(polls.every((p) => p.path === `/image/${item.json.id as string}`)).toBe(true);
		expect(polls.length).toBeLessThan(20);
	});

	it('deferredWait: fails after the wait timeout, naming the id and how to read it later', async () => {
		mock.service.configure({ processMs: 10_000 });
		try {
			const started = Date.now();
			const run = await mock.run(
				moderate({ imageUrl: SAFE_IMAGE_URL, mode: 'deferredWait', pollInterval: 0.2, waitTimeout: 1 }),
			);
			expect(Date.now() - started).toBeLessThan(5_000);
			const id = imageIdFromPolls();
			const error = nodeError(run);
			expect(error.message).toContain(id);
			expect(error.message).toContain('not ready after 1 seconds');
			expect(error.description).toContain('Image > Get');
			expect(run.status).toBe('error');
		} finally {
			mock.service.configure({ processMs: 50 });
		}
	});

	it('deferredWait: a 404 while polling counts as not ready yet', async () => {
		const result = imageResult('img-404');
		const server = await startScriptedServer((request, index) => {
			if (request.method === 'POST') return { status: 202, body: { id: 'img-404' } };
			return index < 3 ? { status: 404, body: { error: { status: 404, code: 'not_found', message: 'no' } } } : { status: 200, body: result };
		});
		try {
			const run = await mock.run(
				moderate({ imageUrl: SAFE_IMAGE_URL, mode: 'deferredWait', pollInterval: 0.1, waitTimeout: 5 }),
				undefined,
				{ baseUrl: server.url },
			);
			expect(run.status).toBe('success');
			expect(output(run)[0].json).toEqual(result);
			expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
				'POST /image',
				'GET /image/img-404',
				'GET /image/img-404',
				'GET /image/img-404',
			]);
		} finally {
			await server.stop();
		}
	});
});

function imageIdFromPolls(): string {
	const poll = mock.service.requests.find((r) => r.method === 'GET');
	if (!poll) throw new Error('no poll request recorded');
	return decodeURIComponent(poll.path.replace('/image/', ''));
}

describe('pollUntil (the poll loop of Deferred and Wait), on a fake clock', () => {
	it('returns the first value a check gives, checking once per interval', async () => {
		const clock = new FakeClock();
		const times: number[] = [];
		const check = async () => (times.push(clock.now() - start) === 3 ? 'ready' : undefined);
		const start = clock.now();
		const polled = pollUntil({ intervalSeconds: 0.05, timeoutSeconds: 5 }, check, clock);
		await flush();
		for (let i = 0; i < 3; i++) await clock.advance(50);
		expect([await polled, times]).toEqual(['ready', [0, 50, 100]]);
	});

	it('gives up at the timeout, the first check at once and the last at the deadline', async () => {
		const clock = new FakeClock();
		const times: number[] = [];
		const start = clock.now();
		const polled = pollUntil({ intervalSeconds: 0.1, timeoutSeconds: 0.35 }, async () => void times.push(clock.now() - start), clock);
		await flush();
		for (const step of [100, 100, 100, 50]) await clock.advance(step);
		expect([await polled, times]).toEqual([undefined, [0, 100, 200, 300, 350]]);
	});

	it('stops after as many checks as the timeout holds when the clock does not move', async () => {
		let checks = 0;
		const stopped: Clock = { now: () => 0, sleep: async () => undefined };
		const value = await pollUntil({ intervalSeconds: 0.1, timeoutSeconds: 0.35 }, async () => void checks++, stopped);
		expect([value, checks]).toEqual([undefined, 5]);
	});
});

describe('Image > Moderate, Deferred and Wait, a read that fails after the image was accepted', () => {
	const CONTEXT = executeContext({ pollInterval: 0.1, waitTimeout: 5 });
	const failingRun = (error: Error) =>
		fakeRun((r) => {
			if (r.method === 'GET') throw error;
			return {};
		});

	it('names the accepted moderation and how to read it, so that the image is not sent again', async () => {
		const { run } = failingRun(new Error('read ECONNRESET'));
		const error = await rejection(pollResult.call(CONTEXT, 0, run.client, 'img-accepted-7'));
		expect(error.message).toMatch(/closed unexpectedly/); // n8n's words for ECONNRESET
		expect(error.description).toMatch(/^The service accepted the image as moderation "img-accepted-7": read its result with Image > Get/);
		expect(error.description).toContain('sends the image again');
	});

	it("keeps the error's own description first", async () => {
		const apiError = new NodeApiError(contentModerationNode, { message: 'Bad gateway' }, { description: 'The proxy failed.' });
		const { run } = failingRun(apiError);
		const error = await rejection(pollResult.call(CONTEXT, 0, run.client, 'img-accepted-8'));
		expect(error).toBe(apiError);
		expect(error.description).toMatch(/^The proxy failed\. The service accepted the image as moderation "img-accepted-8"/);
	});

	it('a poll the engine runs: the POST is sent once and the error names the id', async () => {
		const lost = await startScriptedServer((request) =>
			request.method === 'POST' ? { status: 200, body: { id: 'img-accepted-9' } } : { status: 0, hangUp: true },
		);
		try {
			const options = { maxRetries: 0 };
			const parameters = moderate({ imageUrl: SAFE_IMAGE_URL, mode: 'deferredWait', pollInterval: 0.1, waitTimeout: 5, options });
			const run = await mock.run(parameters, [{ json: { n: 0 } }], { baseUrl: lost.url });
			expect(run.status).toBe('error');
			expect(nodeError(run).description).toContain('moderation "img-accepted-9"');
			expect(lost.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		} finally {
			await lost.stop();
		}
	});
});
