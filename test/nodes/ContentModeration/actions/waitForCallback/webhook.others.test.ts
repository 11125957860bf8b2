/**
 * Wait for Callback's webhook (handleWaitCallback) on a fake webhook context: the other items' results, read
 * where this process did not submit them (or they were refused), the one callback that resumes on n8n 1.x,
 * and the outputs once all are known.
 */
import type { IDataObject, IHttpRequestOptions, IWebhookResponseData } from 'n8n-workflow';

import { handleWaitCallback, type WaitTarget } from '@package/nodes/ContentModeration/actions/waitForCallback/webhook';
import { runKey, waitMemory } from '@package/nodes/ContentModeration/actions/waitForCallback/memory';
import type { WaitState } from '@package/nodes/ContentModeration/actions/waitForCallback/state';
import { itemKey } from '@package/nodes/ContentModeration/actions/waitForCallback/urls';
import { getImage } from '@package/nodes/ContentModeration/transport/endpoints';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { fakeWebhook } from '@test/helpers/fakeWebhook';

const SECRET = 'run-secret-0002';
const DEADLINE = '2031-01-01T00:00:00.000Z';
const KEY = runKey('exec-1', 'Node', DEADLINE);
const target: WaitTarget = { facts: { analysisOf: (result) => result }, read: getImage };

const complete = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	isSafe: true,
	suggestedActions: { reject: false, review: false },
	riskScores: { overall: 1 },
	nsfwCategories: [],
	...extra,
});
const refusal = (status: number, message: string) => [
	{ status, body: { received: false, error: { status, message } } },
];
const ok = (id: string) => ({ statusCode: 200, body: complete(id) });

/** Item `item`'s callback, its own result complete in the body; `results`: the service's answers by id. */
async function callback(
	state: WaitState,
	item: number,
	results: Record<string, { statusCode: number; body: unknown }> = {},
) {
	const id = (state.items[item] as { id: string }).id;
	const fake = fakeWebhook({
		credential: {},
		query: { item: String(item), key: itemKey(SECRET, item) },
		body: { event: 'moderation.completed', data: complete(id) },
		evaluate: (expression) => (expression.includes('.context[') ? state : []),
		answer: (request: IHttpRequestOptions) =>
			results[String(request.url).split('/').pop() ?? ''] ?? { statusCode: 404, body: {} },
	});
	const out: IWebhookResponseData = await handleWaitCallback.call(fake.ctx, target);
	return { ...fake, out, reads: fake.requests.map((r) => String(r.url).split('/').pop()) };
}
const state = (items: WaitState['items'], extra: Partial<WaitState> = {}): WaitState => ({
	secret: SECRET,
	items,
	deadline: DEADLINE,
	...extra,
});

beforeEach(() => resetProcessState());

describe('submitted by this process (watched)', () => {
	test('the first callback of two waits for the other, reading nothing', async () => {
		waitMemory.watch(KEY, DEADLINE);
		const run = state([{ id: 'm-0' }, { id: 'm-1' }]);
		const first = await callback(run, 0, { 'm-1': ok('m-1') });
		expect(first.reads).toEqual([]);
		expect(first.out).toEqual({ webhookResponse: { received: true, resumed: false, waitingFor: 'm-1' } });
		const second = await callback(run, 1);
		expect(second.reads).toEqual([]);
		expect(second.out.webhookResponse).toEqual({ received: true, resumed: true });
		expect(second.out.workflowData).toEqual([
			[
				{ json: complete('m-0'), pairedItem: { item: 0 } },
				{ json: complete('m-1'), pairedItem: { item: 1 } },
			],
		]);
	});

	test('an item whose callback was refused is read once more by the next callback', async () => {
		waitMemory.watch(KEY, DEADLINE);
		const run = state([{ id: 'm-0' }, { id: 'm-1' }, { id: 'm-2' }]);
		waitMemory.run(KEY, DEADLINE).refused.add(1);
		const first = await callback(run, 0, { 'm-1': { statusCode: 202, body: {} } });
		expect(first.reads).toEqual(['m-1']);
		expect(first.out).toEqual({ webhookResponse: { received: true, resumed: false, waitingFor: 'm-1' } });
		// Read once per refusal: still pending, it is not read again.
		const again = await callback(run, 0);
		expect(again.reads).toEqual([]);
	});
});

describe('not submitted by this process (another process, a restart)', () => {
	test('every unknown item is read, in order; all complete: the run resumes', async () => {
		const run = state([
			{ id: 'm-0' },
			{ error: { error: 'refused' } },
			{ id: 'm-2' },
			{ result: complete('m-3') },
			{ id: 'm-4' },
		]);
		const { out, reads } = await callback(run, 2, { 'm-0': ok('m-0'), 'm-4': ok('m-4') });
		// A ready one does not stop the reading: the next unknown one is read too.
		expect(reads).toEqual(['m-0', 'm-4']);
		expect(out.webhookResponse).toEqual({ received: true, resumed: true });
		expect(out.workflowData?.[0].map((item) => item.json)).toEqual([
			complete('m-0'),
			{ error: 'refused' },
			complete('m-2'),
			complete('m-3'),
			complete('m-4'),
		]);
	});

	test("another item's key in the result read for it is masked: this callback's own key is not the only one", async () => {
		const run = state([{ id: 'm-0' }, { id: 'm-1' }]);
		const otherKey = itemKey(SECRET, 1);
		const { out } = await callback(run, 0, {
			'm-1': { statusCode: 200, body: complete('m-1', { echo: `key=${otherKey}` }) },
		});
		expect(out.webhookResponse).toEqual({ received: true, resumed: true });
		expect(out.workflowData?.[0][1].json).toEqual(complete('m-1', { echo: 'key=***' }));
	});

	test('reading stops at the first not ready: waiting for it', async () => {
		const run = state([{ id: 'm-0' }, { id: 'm-1' }, { id: 'm-2' }]);
		const { out, reads } = await callback(run, 0, { 'm-1': { statusCode: 202, body: {} }, 'm-2': ok('m-2') });
		expect(reads).toEqual(['m-1']);
		expect(out).toEqual({ webhookResponse: { received: true, resumed: false, waitingFor: 'm-1' } });
	});

	test('a read that fails: 503', async () => {
		const run = state([{ id: 'm-0' }, { id: 'm-1' }]);
		const { written } = await callback(run, 0, { 'm-1': { statusCode: 403, body: {} } });
		expect(written).toEqual(
			refusal(503, 'Other results could not be read: reading a result failed (HTTP 403); try this callback again'),
		);
	});
});

describe('n8n 1.x: one callback resumes', () => {
	test("another item's callback is acknowledged, naming the one that resumes", async () => {
		const run = state([{ id: 'm-0' }, { id: 'm-1' }], { resumer: 1 });
		const { out, reads } = await callback(run, 0, { 'm-1': ok('m-1') });
		expect(reads).toEqual([]);
		expect(out).toEqual({ webhookResponse: { received: true, resumed: false, waitingFor: 'the callback of item 1' } });
	});

	test('the resuming one reads the others even where they were submitted; not ready: 503 to come again', async () => {
		waitMemory.watch(KEY, DEADLINE);
		const run = state([{ id: 'm-0' }, { id: 'm-1' }], { resumer: 1 });
		const pending = await callback(run, 1, { 'm-0': { statusCode: 202, body: {} } });
		expect(pending.reads).toEqual(['m-0']);
		expect(pending.written).toEqual(refusal(503, 'Other results are not ready yet; try this callback again'));
		const done = await callback(run, 1, { 'm-0': ok('m-0') });
		expect(done.out.webhookResponse).toEqual({ received: true, resumed: true });
	});
});
