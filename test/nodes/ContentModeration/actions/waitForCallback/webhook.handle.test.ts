/**
 * Wait for Callback's webhook (handleWaitCallback) on a fake webhook context: which callbacks it refuses and
 * how, what it reads, when it resumes, and what the resumed items hold (masked).
 */
import type { IDataObject, IHttpRequestOptions, IWebhookResponseData } from 'n8n-workflow';

import { handleWaitCallback, type WaitTarget } from '@package/nodes/ContentModeration/actions/waitForCallback/webhook';
import { runKey, waitMemory } from '@package/nodes/ContentModeration/actions/waitForCallback/memory';
import type { WaitState } from '@package/nodes/ContentModeration/actions/waitForCallback/state';
import { itemKey } from '@package/nodes/ContentModeration/actions/waitForCallback/urls';
import { getImage } from '@package/nodes/ContentModeration/transport/endpoints';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { fakeWebhook, type FakeWebhookSetup } from '@test/helpers/fakeWebhook';

const SECRET = 'run-secret-0001';
const DEADLINE = '2031-01-01T00:00:00.000Z';
const target: WaitTarget = { facts: { analysisOf: (result) => result }, read: getImage };

const complete = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	isSafe: true,
	suggestedActions: { reject: false, review: false },
	riskScores: { overall: 1 },
	nsfwCategories: [],
	...extra,
});
const waiting = (...ids: string[]): WaitState => ({
	secret: SECRET,
	items: ids.map((id) => ({ id })),
	deadline: DEADLINE,
});
const queryFor = (item: number, extra: IDataObject = {}) => ({
	item: String(item),
	key: itemKey(SECRET, item),
	...extra,
});
const refusal = (status: number, message: string) => [
	{ status, body: { received: false, error: { status, message } } },
];

interface Call extends FakeWebhookSetup {
	state?: WaitState;
	/** The service's answers by moderation id (a read of another id: 404). */
	results?: Record<string, { statusCode: number; body: unknown }>;
}
async function call({ state, results = {}, ...setup }: Call) {
	const fake = fakeWebhook({
		credential: {},
		evaluate: (expression) => (expression.includes('.context[') ? state : [{ json: { input: 1 } }]),
		answer: (request: IHttpRequestOptions) =>
			results[String(request.url).split('/').pop() ?? ''] ?? { statusCode: 404, body: {} },
		...setup,
	});
	const out: IWebhookResponseData = await handleWaitCallback.call(fake.ctx, target);
	return { ...fake, out };
}
const memoryOf = (state: WaitState) => waitMemory.run(runKey('exec-1', 'Node', state.deadline), state.deadline);

beforeEach(() => resetProcessState());

describe('callbacks refused', () => {
	test('no waiting state in this execution: 404', async () => {
		const { out, written } = await call({
			query: queryFor(0),
			body: { event: 'moderation.completed', data: complete('m-0') },
		});
		expect(out).toEqual({ noWebhookResponse: true });
		expect(written).toEqual(refusal(404, 'No moderation of this node waits in this execution'));
	});

	test.each([['x'], ['-1'], ['2'], ['1.5']])('item %j of two: 404', async (item) => {
		const { written } = await call({ state: waiting('m-0', 'm-1'), query: { item, key: itemKey(SECRET, 0) } });
		expect(written).toEqual(refusal(404, 'Unknown item: this execution sent no moderation with that callback URL'));
	});

	test("another item's key, or none: 401", async () => {
		const state = waiting('m-0', 'm-1');
		const other = await call({ state, query: { item: '1', key: itemKey(SECRET, 0) } });
		expect(other.written).toEqual(refusal(401, 'Invalid key for this callback URL'));
		const none = await call({ state, query: { item: '1' } });
		expect(none.written).toEqual(refusal(401, 'Invalid key for this callback URL'));
	});

	test('another event than a result: 422, nothing read', async () => {
		const { written, requests } = await call({
			state: waiting('m-0'),
			query: queryFor(0),
			body: { event: 'queue.review.completed', data: { id: 'm-0', status: 'accepted' } },
		});
		expect(written).toEqual(refusal(422, 'This URL takes only moderation.completed callbacks'));
		expect(requests).toEqual([]);
	});

	test('a result naming another moderation: 422', async () => {
		const { written } = await call({
			state: waiting('m-0'),
			query: queryFor(0),
			body: { event: 'moderation.completed', data: complete('m-9') },
		});
		expect(written).toEqual(refusal(422, 'This URL waits for moderation m-0, not the one the callback names'));
	});

	test('a run this process is resuming: 503', async () => {
		const state = waiting('m-0');
		memoryOf(state);
		waitMemory.resume(runKey('exec-1', 'Node', DEADLINE));
		const { written } = await call({ state, query: queryFor(0), body: complete('m-0') });
		expect(written).toEqual(refusal(503, 'This execution is being resumed; try this callback again'));
	});

	test('anything failing (the expression engine): 503, or nothing more once the answer has begun', async () => {
		const fake = fakeWebhook({
			evaluate: () => {
				throw new Error('isolate gone');
			},
		});
		expect(await handleWaitCallback.call(fake.ctx, target)).toEqual({ noWebhookResponse: true });
		expect(fake.written).toEqual(refusal(503, 'The callback could not be processed; try it again'));
		const begun = fakeWebhook({
			evaluate: () => {
				throw new Error('isolate gone');
			},
		});
		begun.response.writeHead(200);
		expect(await handleWaitCallback.call(begun.ctx, target)).toEqual({ noWebhookResponse: true });
		expect(begun.written).toEqual([]);
	});
});

describe("the callback's own result", () => {
	test('complete in the body (flat or {event, data}): the run resumes with it, masked, nothing read', async () => {
		for (const body of [
			complete('m-0', { note: 'sk-test-0001' }),
			{ event: 'moderation.completed', data: complete('m-0', { note: 'sk-test-0001' }) },
		]) {
			resetProcessState();
			const { out, requests, written } = await call({
				state: waiting('m-0'),
				query: queryFor(0, { signature: 'sig-1' }),
				body,
			});
			expect(written).toEqual([]);
			expect(requests).toEqual([]);
			expect(out.webhookResponse).toEqual({ received: true, resumed: true });
			expect(out.workflowData).toEqual([[{ json: complete('m-0', { note: '***' }), pairedItem: { item: 0 } }]]);
		}
	});

	test("the item's key and n8n's token, in a result read back, are masked", async () => {
		const key = itemKey(SECRET, 0);
		const read = complete('m-0', { a: `k=${key}`, b: 'sig-secret-0001' });
		const { out, requests } = await call({
			state: waiting('m-0'),
			query: queryFor(0, { signature: 'sig-secret-0001' }),
			body: { event: 'moderation.completed', data: { id: 'm-0', status: 'processing' } },
			results: { 'm-0': { statusCode: 200, body: read } },
		});
		expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET http://service.test/image/m-0']);
		expect(out.workflowData?.[0][0].json).toEqual({ ...read, a: 'k=***', b: '***' });
	});

	test('not ready when read: 503, and the item is read again by a later callback', async () => {
		const state = waiting('m-0', 'm-1');
		const pending = await call({
			state,
			query: queryFor(0),
			body: { id: 'm-0', status: 'processing' },
			results: { 'm-0': { statusCode: 202, body: {} } },
		});
		expect(pending.written).toEqual(
			refusal(
				503,
				"This callback's moderation could not be completed: the result is not ready yet; try this callback again",
			),
		);
		expect(memoryOf(state).refused.has(0)).toBe(true);
		const failed = await call({
			state,
			query: queryFor(0),
			body: {},
			results: { 'm-0': { statusCode: 403, body: {} } },
		});
		expect(failed.written).toEqual(
			refusal(
				503,
				"This callback's moderation could not be completed: reading a result failed (HTTP 403); try this callback again",
			),
		);
	});
});

describe('after the first callback', () => {
	test('once this process resumed the run, a later callback is answered 503 being resumed and reads nothing', async () => {
		const state = waiting('m-0');
		const first = await call({ state, query: queryFor(0), body: complete('m-0') });
		expect(first.out.webhookResponse).toEqual({ received: true, resumed: true });
		const later = await call({
			state,
			query: queryFor(0),
			body: { id: 'm-0', status: 'processing' },
			results: { 'm-0': { statusCode: 200, body: complete('m-0') } },
		});
		expect(later.written).toEqual(refusal(503, 'This execution is being resumed; try this callback again'));
		expect(later.requests).toEqual([]);
	});

	test('repeats of a callback whose result is known change nothing and read nothing: the first result is kept', async () => {
		const state = waiting('m-0', 'm-1');
		waitMemory.watch(runKey('exec-1', 'Node', DEADLINE), DEADLINE);
		await call({ state, query: queryFor(0), body: complete('m-0', { note: 'first' }) });
		for (const body of [complete('m-0', { note: 'again' }), { id: 'm-0', status: 'processing' }]) {
			const repeat = await call({ state, query: queryFor(0), body });
			expect(repeat.requests).toEqual([]);
			expect(repeat.out).toEqual({ webhookResponse: { received: true, resumed: false, waitingFor: 'm-1' } });
		}
		const last = await call({ state, query: queryFor(1), body: complete('m-1') });
		expect(last.out.workflowData?.[0].map((item) => item.json)).toEqual([complete('m-0', { note: 'first' }), complete('m-1')]);
	});

	test('a callback for an item answered at submission (not waiting) is acknowledged, whatever id it names', async () => {
		const state: WaitState = { secret: SECRET, items: [{ result: complete('m-0') }, { id: 'm-1' }], deadline: DEADLINE };
		waitMemory.watch(runKey('exec-1', 'Node', DEADLINE), DEADLINE);
		const { out, requests, written } = await call({ state, query: queryFor(0), body: complete('m-0') });
		expect(written).toEqual([]);
		expect(requests).toEqual([]);
		expect(out).toEqual({ webhookResponse: { received: true, resumed: false, waitingFor: 'm-1' } });
	});

	test('a complete result without an id names no moderation: the waited one is read, and the read is taken', async () => {
		const noId = complete('m-0', { note: 'sent' });
		delete noId.id;
		const read = complete('m-0', { note: 'read' });
		const { out, requests } = await call({
			state: waiting('m-0'),
			query: queryFor(0),
			body: noId,
			results: { 'm-0': { statusCode: 200, body: read } },
		});
		expect(requests.map((r) => r.url)).toEqual(['http://service.test/image/m-0']);
		expect(out.workflowData).toEqual([[{ json: read, pairedItem: { item: 0 } }]]);
	});

	test("Route by Verdict keeps the waiting node's input items, read with `$input.all()`", async () => {
		const routing = { reviewOutput: false, order: { safe: 0, flagged: 1, review: 2 }, rules: [{}], keepInput: [true] };
		const state: WaitState = { ...waiting('m-0'), routing };
		const { out } = await call({
			state,
			query: queryFor(0),
			body: complete('m-0'),
			evaluate: (expression) =>
				expression.includes('.context[') ? state : expression === '{{ $input.all() }}' ? [{ json: { post: 7 } }] : undefined,
		});
		expect(out.workflowData).toEqual([
			[
				{
					json: { post: 7, moderation: complete('m-0'), verdict: 'safe', verdictReasons: ['no flag rule matched'] },
					pairedItem: { item: 0 },
				},
			],
			[],
		]);
	});
});
