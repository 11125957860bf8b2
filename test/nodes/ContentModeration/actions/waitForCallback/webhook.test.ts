/**
 * Wait for Callback, the webhook() side (webhook.ts): which callbacks resume the waiting execution, which
 * are answered and ignored or refused, and what never appears in an answer.
 */
import { inspect } from 'node:util';

import type { MockService } from '@dev/mock/server';
import { SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { waitFor } from '@dev/wait';
import { waitMemory } from '@package/nodes/ContentModeration/actions/waitForCallback/memory';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { startScriptedServer } from '@test/helpers/scripted-server';
import { imageResult } from '@test/helpers/callbackBodies';
import { NODE, post, urlItems, waitParameters, useWaitingImages } from '@test/helpers/waitingImages';

const waiting = useWaitingImages();
const { credentials, callbackUrls, startWaiting } = waiting;
let mock: MockService;
beforeAll(() => {
	mock = waiting.mock;
});

describe('Wait for Callback: the callbacks', () => {
	it('on an n8n without atomic resume (1.x), only the last waiting item\'s callback resumes, however many come at once', async () => {
		// Every result completes at the same moment, so the callbacks arrive together and each sees all ready.
		mock.configure({ processMs: 300 });
		const urls = Array.from({ length: 6 }, (_, index) => `${SAFE_IMAGE_URL}?n=${index}`);
		const execution = await startWaiting(waitParameters(), urlItems(urls), { resumeTokens: false });
		expect(execution.status).toBe('waiting');
		expect(execution.resumeToken).toBeUndefined();
		expect(callbackUrls().every((url) => !new URL(url).searchParams.has('signature'))).toBe(true);
		const run = await execution.finished(30_000);
		// Every callback of this execution was answered 2xx in the end (late ones included).
		const ids = mock.submissionLog.map((submission) => submission.id);
		await waitFor(
			'every callback acknowledged',
			() => (ids.every((id) => mock.callbacks.some((c) => c.moderationId === id && c.ok)) ? true : undefined),
			30_000,
			50,
		);
		expect(run.outputOf(NODE)).toHaveLength(6);
		expect(execution.resumes).toBe(1);
		const resumedBy = execution.calls.filter((call) => call.resumed).map((call) => call.query.item);
		expect(resumedBy).toEqual(['5']);
	});

	it('answers callbacks that arrive before the wait is saved with 409, and the retried ones resume it', async () => {
		mock.configure({ processMs: 0 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL, UNSAFE_IMAGE_URL]), {
			saveDelayMs: 300,
		});
		const run = await execution.finished(30_000);
		expect(run.status).toBe('success');
		const early = execution.calls.filter((call) => call.status === 409);
		expect(early.length).toBeGreaterThan(0);
		expect(mock.callbacks.some((attempt) => attempt.status === 409)).toBe(true);
		expect(run.outputOf(NODE).map((item) => item.json.isSafe)).toEqual([true, false]);
		expect(execution.resumes).toBe(1);
	});

	it('answers a repeated or late callback without starting anything', async () => {
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL]));
		await execution.finished(30_000);
		const [url] = callbackUrls();
		const result = mock.submissionLog[0].id;
		const again = await post(url, { id: result });
		expect(again.status).toBe(409);
		expect(execution.resumes).toBe(1);
		expect(execution.status).toBe('finished');
	});

	it('refuses a wrong key, an unknown item, a wrong signature and a foreign moderation id, and stays waiting', async () => {
		mock.configure({ processMs: 60_000 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL, SAFE_IMAGE_URL]));
		expect(execution.status).toBe('waiting');
		const [first, second] = callbackUrls();
		const id = mock.submissionLog[0].id;

		const wrongKey = new URL(first);
		wrongKey.searchParams.set('key', '0'.repeat(64));
		expect(await post(wrongKey.toString(), { id })).toMatchObject({ status: 401, body: { received: false } });

		// Item 1's key does not open item 0.
		const swapped = new URL(first);
		swapped.searchParams.set('key', new URL(second).searchParams.get('key') as string);
		expect((await post(swapped.toString(), { id })).status).toBe(401);

		const unknown = new URL(first);
		unknown.searchParams.set('item', '7');
		expect((await post(unknown.toString(), { id })).status).toBe(404);

		const unsigned = new URL(first);
		unsigned.searchParams.set('signature', 'x'.repeat(20));
		expect(await post(unsigned.toString(), { id })).toMatchObject({ status: 401, body: { error: 'Invalid token' } });

		expect((await post(first, { id: mock.submissionLog[1].id })).status).toBe(422);

		// A genuine callback while its result is not ready yet: asked to come again, nothing resumed.
		expect(await post(first, { id })).toMatchObject({ status: 503, body: { received: false } });

		expect(execution.status).toBe('waiting');
		expect(execution.resumes).toBe(0);
		expect(execution.webhookThrew).toBe(false);
	});

	it.each(['application/octet-stream', 'application/x-www-form-urlencoded', 'text/plain', null])(
		'reads a callback sent as %s (n8n leaves some unread at the node\'s version): a foreign id is refused, its own (not ready) asked to come again',
		async (contentType) => {
			mock.configure({ processMs: 60_000 });
			const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL, SAFE_IMAGE_URL]));
			const [first] = callbackUrls();
			const [own, foreign] = mock.submissionLog.map((submission) => ({ event: 'moderation.completed', data: { id: submission.id } }));
			expect(await post(first, JSON.stringify(foreign), { contentType })).toMatchObject({ status: 422, body: { received: false } });
			const review = { event: 'queue.review.completed', data: { id: 'q-1', status: 'accepted' } };
			expect(await post(first, JSON.stringify(review), { contentType })).toMatchObject({ status: 422, body: { error: { message: 'This URL takes only moderation.completed callbacks' } } });
			expect(await post(first, JSON.stringify(own), { contentType })).toMatchObject({ status: 503, body: { received: false } });
			expect(execution.status).toBe('waiting');
		},
	);

	it('masks the Secret Key in the output when the resuming callback carries it, with no result read', async () => {
		mock.configure({ processMs: 60_000 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL]));
		const [url] = callbackUrls();
		const id = mock.submissionLog[0].id;
		const encoded = Buffer.from(mock.token).toString('base64');
		const body = imageResult(id, { description: `sent with ${mock.token}`, meta: { b64: encoded } });
		expect(await post(url, { event: 'moderation.completed', data: body })).toMatchObject({ status: 200, body: { resumed: true } });
		const run = await execution.finished(30_000);
		expect(run.outputOf(NODE)[0].json).toMatchObject({ id, description: 'sent with ***', meta: { b64: '***' } });
		expect(JSON.stringify(run.runData)).not.toContain(mock.token);
	});

	it('keeps what a callback carried masked while the run waits, and forgets it once resumed', async () => {
		mock.configure({ processMs: 60_000 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL, SAFE_IMAGE_URL]));
		const [first, second] = callbackUrls();
		const [a, b] = mock.submissionLog.map((submission) => submission.id);
		const key = new URL(first).searchParams.get('key') as string;
		const carried = imageResult(a, { description: `sent with ${mock.token}`, callbackUrl: first });
		expect(await post(first, { event: 'moderation.completed', data: carried })).toMatchObject({ status: 200, body: { resumed: false } });
		const held = inspect(waitMemory, { depth: 10 });
		expect(held).toContain('sent with ***');
		expect(held).not.toContain(mock.token);
		expect(held).not.toContain(key);
		expect(await post(second, { event: 'moderation.completed', data: imageResult(b, { isSafe: false }) })).toMatchObject({ status: 200, body: { resumed: true } });
		await execution.finished(30_000);
		expect(inspect(waitMemory, { depth: 10 })).not.toContain(a);
		expect(mock.requests.filter((request) => request.method === 'GET')).toHaveLength(0);
	});

	it('answers 503 (so the service retries) when the results cannot be read, and stays waiting', async () => {
		mock.configure({ processMs: 60_000 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL]));
		mock.configure({ faultRate: 1 });
		const [url] = callbackUrls();
		// A callback without the result in its body: the node must read it, and every read fails.
		const failed = await post(url, { id: mock.submissionLog[0].id });
		expect(failed).toMatchObject({ status: 503, body: { received: false } });
		expect(JSON.stringify(failed.body)).not.toContain(mock.token);
		expect(execution.status).toBe('waiting');
		expect(execution.resumes).toBe(0);
		expect(execution.webhookThrew).toBe(false);
	});

	it('keeps the callback URL\'s key and n8n\'s resume token out of an error that echoes the request', async () => {
		// A service that refuses the submission and repeats what it was sent.
		const echo = await startScriptedServer((request) => ({
			status: 400,
			body: { error: { message: `bad request: ${JSON.stringify(request.body)}` } },
		}));
		try {
			const run = await runWorkflow({
				nodes: [moderationNode(waitParameters())],
				credentials: { contentModerationApi: { baseUrl: echo.url, accessToken: 'echo-token-1234' } },
				items: urlItems([SAFE_IMAGE_URL]),
			});
			expect(run.status).toBe('error');
			const sent = new URL((echo.requests[0].body as { options: { callbackUrl: string } }).options.callbackUrl);
			const key = sent.searchParams.get('key') as string;
			const signature = sent.searchParams.get('signature') as string;
			expect(key).toMatch(/^[0-9a-f]{64}$/);
			expect(signature.length).toBeGreaterThan(10);
			// The node's error and run data (n8n keeps its own resume token elsewhere in the execution).
			const error = run.errorOf(NODE) as unknown as Record<string, unknown>;
			const dump = JSON.stringify({
				message: error.message,
				description: error.description,
				response: error.errorResponse,
				stack: error.stack,
				runData: run.runData,
			});
			expect(dump).toContain('bad request');
			expect(dump).not.toContain(key);
			expect(dump).not.toContain(signature);
		} finally {
			await echo.stop();
		}
	});
});
