/**
 * Wait for Callback's webhook (handleWaitCallback) on a fake webhook context, its edges: a body id that is not
 * text, a read without an answer, and another callback resuming the run while this one reads.
 */
import type { IDataObject, IHttpRequestOptions, IWebhookResponseData } from 'n8n-workflow';

import { handleWaitCallback, type WaitTarget } from '@package/nodes/ContentModeration/actions/waitForCallback/webhook';
import { runKey, waitMemory } from '@package/nodes/ContentModeration/actions/waitForCallback/memory';
import type { WaitState } from '@package/nodes/ContentModeration/actions/waitForCallback/state';
import { itemKey } from '@package/nodes/ContentModeration/actions/waitForCallback/urls';
import { getImage } from '@package/nodes/ContentModeration/transport/endpoints';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { fakeWebhook } from '@test/helpers/fakeWebhook';

const SECRET = 'run-secret-0004';
const DEADLINE = '2031-01-01T00:00:00.000Z';
const target: WaitTarget = { facts: { analysisOf: (result) => result }, read: getImage };
const complete = (id: string): IDataObject => ({
	id,
	isSafe: true,
	suggestedActions: { reject: false, review: false },
	riskScores: { overall: 1 },
	nsfwCategories: [],
});
const refusal = (status: number, message: string) => [
	{ status, body: { received: false, error: { status, message } } },
];

async function callback(
	state: WaitState,
	body: unknown,
	answer: (request: IHttpRequestOptions) => { statusCode: number; body: unknown },
) {
	const fake = fakeWebhook({
		credential: {},
		query: { item: '0', key: itemKey(SECRET, 0) },
		body,
		evaluate: (expression) => (expression.includes('.context[') ? state : []),
		answer,
	});
	const out: IWebhookResponseData = await handleWaitCallback.call(fake.ctx, target);
	return { ...fake, out, reads: fake.requests.map((r) => String(r.url).split('/').pop()) };
}

beforeEach(() => resetProcessState());

test('a body whose id is not text names no moderation: the waited one is read', async () => {
	const state: WaitState = { secret: SECRET, items: [{ id: 'm-0' }], deadline: DEADLINE };
	const { out, reads } = await callback(state, { id: 7, status: 'processing' }, () => ({
		statusCode: 200,
		body: complete('m-0'),
	}));
	expect(reads).toEqual(['m-0']);
	expect(out.webhookResponse).toEqual({ received: true, resumed: true });
});

test('a read without an answer: 503 saying so', async () => {
	const state: WaitState = { secret: SECRET, items: [{ id: 'm-0' }], deadline: DEADLINE };
	const { written } = await callback(state, { id: 'm-0', status: 'processing' }, () => {
		throw Object.assign(new Error('socket hang up'), { code: 'EPROTO' });
	});
	expect(written).toEqual(
		refusal(
			503,
			"This callback's moderation could not be completed: reading a result failed (no answer); try this callback again",
		),
	);
});

test('another callback resumes the run during a read: reading stops, 503 being resumed', async () => {
	const state: WaitState = { secret: SECRET, items: [{ id: 'm-0' }, { id: 'm-1' }, { id: 'm-2' }], deadline: DEADLINE };
	const { written, reads } = await callback(state, complete('m-0'), (request) => {
		waitMemory.resume(runKey('exec-1', 'Node', DEADLINE));
		return { statusCode: 200, body: complete(String(request.url).split('/').pop() ?? '') };
	});
	expect(reads).toEqual(['m-1']);
	expect(written).toEqual(refusal(503, 'This execution is being resumed; try this callback again'));
});

test('a run key is the execution, the node and the deadline; no deadline is the empty one', () => {
	expect(runKey('e', 'n', undefined)).toBe('["e","n",""]');
	expect(runKey('e', 'n', DEADLINE)).toBe(`["e","n","${DEADLINE}"]`);
});
