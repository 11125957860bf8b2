/**
 * Wait for Callback reads each result at most once per process (webhook.ts, memory.ts), through n8n-core's
 * real engine: the mock works on the images but calls back nobody (a proxy keeps the callback URLs), and
 * the test plays the service's callbacks, in random order, some twice, several at once. Reads are counted
 * at the mock.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { inspect } from 'node:util';

import type { IDataObject } from 'n8n-workflow';

import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { call } from '@dev/mock/client';
import { startMockService, type MockService } from '@dev/mock/server';
import { waitMemory } from '@package/nodes/ContentModeration/actions/waitForCallback/memory';
import { moderationNode, startWaitingHarness, type WaitingExecution, type WaitingHarness } from '@test/helpers/engine';
import { startSilentService, type SilentService } from '@test/helpers/silentService';
import { NODE, post, urlItems, waitParameters } from '@test/helpers/waitingImages';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

let mock: MockService;
let silent: SilentService;
let harness: WaitingHarness;

beforeAll(async () => {
	mock = await startMockService({ processMs: 0 });
	silent = await startSilentService(mock);
	harness = await startWaitingHarness();
});

afterAll(async () => {
	await silent?.stop();
	await mock?.stop();
	await harness?.stop();
});

beforeEach(() => {
	resetProcessState();
	silent.callbackUrls.clear();
	mock.reset();
});

/** A fixed pseudo-random sequence (the same order on every run). */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
		return state / 2 ** 31;
	};
}

/** Every id once in a shuffled order, and about one in ten again at a random later place. */
function deliveryPlan(ids: string[], seed: number): string[] {
	const next = random(seed);
	const plan = [...ids];
	for (let i = plan.length - 1; i > 0; i--) {
		const j = Math.floor(next() * (i + 1));
		[plan[i], plan[j]] = [plan[j], plan[i]];
	}
	for (const id of ids.filter(() => next() < 0.1)) plan.splice(Math.floor(next() * (plan.length + 1)), 0, id);
	return plan;
}

interface Run {
	execution: WaitingExecution;
	/** Moderation ids in input order */
	ids: string[];
	/** Makes an item's result ready (each is held until then) */
	complete(id: string): void;
}

async function waitingRun(count: number): Promise<Run> {
	const urls = Array.from({ length: count }, (_, index) => `${SAFE_IMAGE_URL}?n=${index}`);
	const releases = urls.map((url) => mock.holdResultsOf((subject) => subject === url));
	const execution = await harness.start({
		nodes: [moderationNode(waitParameters())],
		credentials: { contentModerationApi: { baseUrl: silent.url, accessToken: mock.token } },
		items: urlItems(urls),
		earlyCalls: 'wait',
	});
	expect(execution.status).toBe('waiting');
	await mock.whenIdle(60_000);
	// In input order: submissions run side by side, and each callback URL names its item.
	const item = (id: string) => Number(new URL(silent.callbackUrls.get(id) as string).searchParams.get('item'));
	const ids = [...silent.callbackUrls.keys()].sort((a, b) => item(a) - item(b));
	expect(ids.map(item)).toEqual(urls.map((_, index) => index));
	mock.reset();
	return { execution, ids, complete: (id) => releases[item(id)]() };
}

/**
 * Plays the service: each result of the plan becomes ready just before its callback is sent (so the
 * results complete one by one while callbacks come), `parallel` callbacks at a time. Returns each
 * delivery's last answer.
 */
async function deliver(run: Run, plan: string[], body: (id: string) => Promise<IDataObject>, parallel = 16): Promise<number[]> {
	const statuses: number[] = [];
	let next = 0;
	const worker = async () => {
		while (next < plan.length) {
			const id = plan[next++];
			run.complete(id);
			const data = await body(id);
			// A callback not answered in time (a loaded machine) counts as status 0, as a connection error would.
			const send = async () =>
				await post(silent.callbackUrls.get(id) as string, { event: 'moderation.completed', data }).catch(() => ({ status: 0, body: undefined }));
			let answer = await send();
			// As the service does: a non-2xx answer or no answer is tried again (409: the execution went on).
			const again = () => answer.status === 0 || (answer.status >= 300 && answer.status !== 409);
			for (let retry = 0; retry < 5 && again(); retry++) {
				await delay(50);
				answer = await send();
			}
			statuses.push(answer.status);
		}
	};
	await Promise.all(Array.from({ length: parallel }, worker));
	return statuses;
}

/** The result as the service would put it in its callback; read with a mark, so that it is not counted. */
async function fullResult(id: string): Promise<IDataObject> {
	const answer = await call(mock.url, 'GET', `/image/${id}`, { headers: { 'x-test-read': 'body' } });
	expect(answer.status).toBe(200);
	return { id, ...(answer.body as IDataObject) };
}

/** The node's reads of results. */
const nodeReads = () => mock.requests.filter((request) => request.method === 'GET' && !request.headers['x-test-read']);

async function expectAllResults(execution: WaitingExecution, ids: string[]): Promise<void> {
	const run = await execution.finished(60_000);
	expect(execution.resumes).toBe(1);
	expect(execution.webhookThrew).toBe(false);
	expect(run.outputOf(NODE).map((item) => [item.json.id, item.json.isSafe])).toEqual(ids.map((id) => [id, true]));
	// Dropped on resume.
	expect(inspect(waitMemory, { depth: 10 })).not.toContain(ids[0]);
}

describe('Wait for Callback: each result read at most once in one process', () => {
	it.each([100, 1000])('%i items whose callbacks carry their results: no read', async (count) => {
		const run = await waitingRun(count);
		const plan = deliveryPlan(run.ids, count);
		expect(plan.length).toBeGreaterThan(count);

		const statuses = await deliver(run, plan, fullResult);
		await expectAllResults(run.execution, run.ids);
		expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
		expect(nodeReads()).toHaveLength(0);
	}, 300_000);

	it.each([100, 1000])('%i items whose callbacks carry only their id: one read per item', async (count) => {
		const run = await waitingRun(count);
		const statuses = await deliver(run, deliveryPlan(run.ids, count + 1), async (id) => ({ id }));
		await expectAllResults(run.execution, run.ids);
		expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
		// Each item's own, once.
		expect(nodeReads()).toHaveLength(count);
		expect(new Set(nodeReads().map((request) => request.path)).size).toBe(count);
	}, 300_000);

	it('resumes once when callbacks complete the run at once, however many; the others are asked to come again', async () => {
		const run = await waitingRun(3);
		for (const id of run.ids) run.complete(id);
		// A process that knew nothing of the run: every callback reads the others, so they finish together.
		resetProcessState();
		const calls = [...run.ids, ...run.ids].map((id) => post(silent.callbackUrls.get(id) as string, { event: 'moderation.completed', data: { id } }));
		const answers = await Promise.all(calls);
		await expectAllResults(run.execution, run.ids);
		// Not n8n's 500 for a second resume: the others get 503 (being resumed) or n8n's 409.
		expect(answers.filter((answer) => answer.status === 200)).toEqual([{ status: 200, body: { received: true, resumed: true } }]);
		expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 409 && answer.status !== 503)).toEqual([]);
		expect(nodeReads()).toHaveLength(3);
	}, 120_000);

	it('a process that knew nothing of the run (a restart) reads what it did not see, each result once', async () => {
		const run = await waitingRun(100);
		// The first half reached the process before it restarted.
		const [before, after] = [run.ids.slice(0, 50), run.ids.slice(50)];
		await deliver(run, before, async (id) => ({ id }));
		expect(nodeReads()).toHaveLength(50);
		resetProcessState();
		mock.reset();
		const plan = deliveryPlan(after, 7);
		await deliver(run, plan, async (id) => ({ id }));
		await expectAllResults(run.execution, run.ids);
		// Each result once (the first half's callbacks will not come again), and at most one read per callback
		// that finds another result not ready yet (docs/callbacks.md).
		console.log(`after the restart: ${nodeReads().length} reads, ${plan.length} callbacks`);
		expect(nodeReads().length).toBeLessThanOrEqual(100 + plan.length);
		expect(new Set(nodeReads().map((request) => request.path)).size).toBe(100);
	}, 120_000);
});

describe('Wait for Callback: a callback whose own result is not ready', () => {
	const callback = (id: string) => ({ event: 'moderation.completed', data: { id } });
	const readsOf = (id: string) => nodeReads().filter((request) => request.path === `/image/${id}`).length;

	/** A sender as the vendor's: a 2xx answer ends the delivery, another answer is tried again a little later. */
	async function sendAsTheService(url: string, body: unknown, afterAttempt: () => void): Promise<number[]> {
		const statuses: number[] = [];
		for (let attempt = 0; attempt < 4; attempt++) {
			const answer = await post(url, body);
			statuses.push(answer.status);
			if (answer.status < 300) break;
			// Neither what the callback carried nor the id is echoed.
			expect(JSON.stringify(answer.body)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
			afterAttempt();
			await delay(100);
		}
		return statuses;
	}

	it('the last callback, read before its result is ready, is asked to come again, and then resumes', async () => {
		const run = await waitingRun(2);
		const [first, last] = run.ids;
		run.complete(first);
		// Its own result known, the other pending: acknowledged.
		expect(await post(silent.callbackUrls.get(first) as string, callback(first))).toMatchObject({ status: 200, body: { resumed: false } });

		const statuses = await sendAsTheService(silent.callbackUrls.get(last) as string, callback(last), () => run.complete(last));
		expect(statuses).toEqual([503, 200]);
		await expectAllResults(run.execution, run.ids);
		// The read that found it processing was not taken for its result: read again on the next attempt.
		expect([readsOf(first), readsOf(last)]).toEqual([1, 2]);
	}, 60_000);

	it('an item whose sender gave up after a 503 is read by a later callback', async () => {
		const run = await waitingRun(3);
		const [early, second, third] = run.ids;
		// The sender of `early` tries once and gives up.
		expect((await post(silent.callbackUrls.get(early) as string, callback(early))).status).toBe(503);
		for (const id of run.ids) run.complete(id);
		const full = { event: 'moderation.completed', data: await fullResult(second) };
		expect(await post(silent.callbackUrls.get(second) as string, full)).toMatchObject({ status: 200, body: { resumed: false } });
		expect(readsOf(early)).toBe(2);
		expect(await post(silent.callbackUrls.get(third) as string, callback(third))).toMatchObject({ status: 200, body: { resumed: true } });
		await expectAllResults(run.execution, run.ids);
		expect([readsOf(early), readsOf(second), readsOf(third)]).toEqual([2, 0, 1]);
	}, 60_000);

	it('an item still pending when a later callback reads it is read no more until its own callback comes again', async () => {
		const run = await waitingRun(3);
		const [early, second, third] = run.ids;
		expect((await post(silent.callbackUrls.get(early) as string, callback(early))).status).toBe(503);
		// `second` completes, `early` not yet: the one read of `early` by another callback finds it pending.
		run.complete(second);
		expect((await post(silent.callbackUrls.get(second) as string, callback(second))).status).toBe(200);
		expect(readsOf(early)).toBe(2);
		run.complete(early);
		run.complete(third);
		expect(await post(silent.callbackUrls.get(third) as string, callback(third))).toMatchObject({ status: 200, body: { resumed: false } });
		expect(readsOf(early)).toBe(2);
		// Its sender's retry reads it, and resumes the run.
		expect(await post(silent.callbackUrls.get(early) as string, callback(early))).toMatchObject({ status: 200, body: { resumed: true } });
		await expectAllResults(run.execution, run.ids);
		expect(readsOf(early)).toBe(3);
	}, 60_000);
});
