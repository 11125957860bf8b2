/** The one read-back (inbound/readBack.ts): how long an unfinished result is read again, on a fake clock. */
import { NodeApiError, type IDataObject, type INode } from 'n8n-workflow';

import {
	CALLBACK_READ_RETRY,
	isNotFound,
	READ_AGAIN_DELAYS_MS,
	READ_BACK_BUDGET_MS,
	readBack,
	withId,
} from '@package/nodes/ContentModeration/inbound/readBack';
import type { ApiClient } from '@package/nodes/ContentModeration/transport/client';
import { imageResult } from '@test/helpers/callbackBodies';
import { FakeClock, flush } from '@test/helpers/fakeClock';

/** A client whose reads answer `answers` in turn (the last one again), each taking `readMs` on `clock`. */
function scripted(clock: FakeClock, answers: Array<{ statusCode: number; body: unknown }>, readMs = 0) {
	const paths: string[] = [];
	const client = {
		request: async ({ path }: { path: string }) => {
			paths.push(path);
			if (readMs > 0) await clock.sleep(readMs);
			return { headers: {}, ...answers[Math.min(paths.length - 1, answers.length - 1)] };
		},
	} as unknown as ApiClient;
	return { client, paths };
}

/** Runs `promise` to its end, moving the fake clock on in small steps; the time it took. */
async function settle<T>(clock: FakeClock, promise: Promise<T>): Promise<{ value: T; ms: number }> {
	const start = clock.now();
	let value: T | undefined;
	let done = false;
	void promise.then((v) => ((value = v), (done = true)));
	for (let i = 0; i < 1_000 && !done; i++) await clock.advance(50);
	await flush();
	if (!done) throw new Error('never settled');
	return { value: value as T, ms: clock.now() - start };
}

const processing = { statusCode: 200, body: { id: 'r1', status: 'processing' } };
const node = { name: 'n', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
const apiError = (httpCode: string) => new NodeApiError(node, { message: 'no' }, { httpCode });

test('withId adds the id read by only where the result has none (or null); isNotFound is a 404 of the service', () => {
	expect(JSON.stringify(withId('m-1', { isSafe: true }))).toBe('{"id":"m-1","isSafe":true}');
	expect(withId('m-1', { id: 'own', isSafe: true })).toEqual({ id: 'own', isSafe: true });
	// A null id is none: every read (Image > Get, Deferred and Wait, the callbacks' read-back) gives the id read by.
	expect(JSON.stringify(withId('m-1', { isSafe: true, id: null }))).toBe('{"id":"m-1","isSafe":true}');
	expect([apiError('404'), apiError('500'), new Error('404')].map(isNotFound)).toEqual([true, false, false]);
});

test('read again while unfinished, within the budget, then done with the id it was read by', async () => {
	const clock = new FakeClock();
	const result = { ...imageResult(), id: undefined } as IDataObject;
	const { client, paths } = scripted(clock, [{ statusCode: 202, body: {} }, processing, { statusCode: 200, body: result }]);
	const { value } = await settle(clock, readBack(client, 'r1', undefined, 0, clock));
	expect(value).toEqual({ done: true, statusCode: 200, result: { ...result, id: 'r1' } });
	expect(paths).toEqual(['/image/r1', '/image/r1', '/image/r1']);
});

test('still unfinished when the budget runs out: not a completion, its message names the id and status', async () => {
	const clock = new FakeClock();
	const { client, paths } = scripted(clock, [processing]);
	const { value, ms } = await settle(clock, readBack(client, 'r1', 'text', 0, clock));
	expect(value).toEqual({ done: false, statusCode: 200, message: 'The service has not finished moderation r1 yet (HTTP 200, status "processing")' });
	expect(paths).toEqual(Array(READ_AGAIN_DELAYS_MS.length + 1).fill('/text/r1'));
	expect(ms).toBeLessThanOrEqual(READ_BACK_BUDGET_MS);
});

test('slow reads: no read again that would end past the budget, so fewer reads', async () => {
	const clock = new FakeClock();
	const { client, paths } = scripted(clock, [processing], 1_000);
	const { value, ms } = await settle(clock, readBack(client, 'r1', 'image', 0, clock));
	expect(value.done).toBe(false);
	// 1 s read, 0.3 s pause, 1 s read; a 0.7 s pause and another 1 s read would end at 4 s: not taken.
	expect(paths).toHaveLength(2);
	expect(ms).toBeLessThanOrEqual(READ_BACK_BUDGET_MS);
});

test('a read again that would end exactly at the budget is made; the pause counts toward the budget', async () => {
	const clock = new FakeClock();
	// 1.35 s read, 0.3 s pause, 1.35 s read: 3 s, the budget exactly.
	const exact = scripted(clock, [processing], 1_350);
	expect((await settle(clock, readBack(exact.client, 'r1', 'image', 0, clock))).ms).toBe(READ_BACK_BUDGET_MS);
	expect(exact.paths).toHaveLength(2);
	// 0.4 s reads: the third ends at 2.6 s; a 1.5 s pause and a fourth would end at 4.5 s.
	const quick = scripted(clock, [processing], 400);
	expect((await settle(clock, readBack(quick.client, 'r1', 'image', 0, clock))).value.done).toBe(false);
	expect(quick.paths).toHaveLength(3);
});

test("the message names a status only when there is one, and at most 40 of its characters; CALLBACK_READ_RETRY retries once, briefly", async () => {
	const clock = new FakeClock();
	const bare = scripted(clock, [{ statusCode: 202, body: [] }]);
	expect((await settle(clock, readBack(bare.client, 'r1', 'image', 0, clock))).value).toEqual({
		done: false,
		statusCode: 202,
		message: 'The service has not finished moderation r1 yet (HTTP 202)',
	});
	const long = scripted(clock, [{ statusCode: 200, body: { status: `${'s'.repeat(40)}tail` } }]);
	const { value } = await settle(clock, readBack(long.client, 'r1', 'image', 0, clock));
	expect(value).toMatchObject({ message: `The service has not finished moderation r1 yet (HTTP 200, status "${'s'.repeat(40)}")` });
	expect(CALLBACK_READ_RETRY).toEqual({ maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 });
});

test('an id of no shown kind is read from /image, then /text when /image has none (404); an image only from /image', async () => {
	const clock = new FakeClock();
	const result = imageResult('r1');
	const paths: string[] = [];
	/** /image answers `imageError`; /text has the result. */
	const client = (imageError: string) =>
		({
			request: async ({ path }: { path: string }) => {
				paths.push(path);
				if (path.startsWith('/image/')) throw apiError(imageError);
				return { statusCode: 200, headers: {}, body: result };
			},
		}) as unknown as ApiClient;
	expect(await readBack(client('404'), 'r1', undefined, 0, clock)).toEqual({ done: true, statusCode: 200, result });
	expect(paths.splice(0)).toEqual(['/image/r1', '/text/r1']);
	await expect(readBack(client('404'), 'r1', 'image', 0, clock)).rejects.toMatchObject({ httpCode: '404' });
	expect(paths.splice(0)).toEqual(['/image/r1']);
	// Any other failure of /image is the read's failure: /text is not tried.
	await expect(readBack(client('500'), 'r1', undefined, 0, clock)).rejects.toMatchObject({ httpCode: '500' });
	expect(paths.splice(0)).toEqual(['/image/r1']);
});
