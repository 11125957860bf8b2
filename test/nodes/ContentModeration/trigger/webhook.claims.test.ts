/**
 * handleCallback (webhook.ts) on a fake webhook context and the fake system clock: one completion starts its
 * trigger's workflow once (per workflow and webhook), a repeat waits while one is handled, and one that
 * started nothing frees the completion; the secret cache is per credential.
 */
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import { handleCallback } from '@package/nodes/ContentModeration/trigger/webhook';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { fakeWebhook, type FakeWebhookSetup } from '@test/helpers/fakeWebhook';
import { flush } from '@test/helpers/fakeClock';
import { useFakeSystemClock } from '@test/helpers/fakeSystemClock';

const RESULT = 'moderation.completed';
const SECRET = 'cb-secret/strong-0001';
const { clock, settle } = useFakeSystemClock();

const complete = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	isSafe: true,
	suggestedActions: { reject: false, review: false },
	riskScores: { overall: 1 },
	nsfwCategories: [],
	...extra,
});
const body = (id = 'r-1') => ({ event: RESULT, data: complete(id) });

/** One delivery; its response stays open until `n8nAnswers()` (n8n answering once the execution exists). */
async function deliver(setup: FakeWebhookSetup) {
	const fake = fakeWebhook({
		credential: { callbackSecret: SECRET },
		query: { token: SECRET },
		...setup,
	});
	const out: IWebhookResponseData = await settle(handleCallback.call(fake.ctx));
	return {
		...fake,
		out,
		n8nAnswers: async (status = 200) => (fake.response.writeHead(status).end(), await flush()),
	};
}
const started = (out: IWebhookResponseData) => out.workflowData?.length === 1;
/** A few turns of the event loop: a call runs until it waits on the clock. */
const turns = async () => {
	for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};
/** A delivery left running: `out()` is its answer once it has one. */
function pending(setup: FakeWebhookSetup) {
	const fake = fakeWebhook({
		credential: { callbackSecret: SECRET },
		query: { token: SECRET },
		...setup,
	});
	let out: IWebhookResponseData | undefined;
	void handleCallback.call(fake.ctx).then((answer) => (out = answer));
	return { ...fake, out: () => out };
}

beforeEach(() => resetProcessState());

describe('one completion, one execution', () => {
	test('once n8n started it, a repeat is answered duplicate and starts nothing', async () => {
		const first = await deliver({ body: body() });
		expect(started(first.out)).toBe(true);
		await first.n8nAnswers();
		const again = await deliver({ body: body() });
		expect(again.out).toEqual({
			webhookResponse: {
				received: true,
				event: RESULT,
				id: 'r-1',
				duplicate: true,
			},
		});
	});

	test('n8n could not start it (500): a repeat starts it', async () => {
		const first = await deliver({ body: body() });
		await first.n8nAnswers(500);
		expect(started((await deliver({ body: body() })).out)).toBe(true);
	});

	test('a repeat while n8n has not answered waits; answered, it is a duplicate', async () => {
		const first = await deliver({ body: body('r-wait') });
		const repeat = pending({ body: body('r-wait') });
		await turns();
		await clock.advance(1_000);
		expect(repeat.out()).toBeUndefined();
		await first.n8nAnswers();
		await turns();
		expect(repeat.out()?.webhookResponse).toMatchObject({ duplicate: true });
	});

	test('n8n not answering within 4 s: the repeat is refused 503, to be sent again', async () => {
		await deliver({ body: body('r-busy') });
		const repeat = pending({ body: body('r-busy') });
		await turns();
		await clock.advance(3_900);
		await turns();
		expect(repeat.out()).toBeUndefined();
		await clock.advance(200);
		await turns();
		expect(repeat.out()).toEqual({ noWebhookResponse: true });
		expect(repeat.written).toEqual([
			{
				status: 503,
				body: {
					received: false,
					error: {
						status: 503,
						message: 'Another delivery of this completion is being handled; try this callback again',
					},
				},
			},
		]);
	});

	test('a first delivery is handled at once, without waiting on the clock', async () => {
		const first = pending({ body: body('r-once') });
		await turns();
		expect(started(first.out() ?? {})).toBe(true);
	});

	test('one filtered out, or refused, frees the completion: a repeat is handled at once the same way', async () => {
		for (const setup of [
			{ parameters: { events: 'flagged' } },
			{
				parameters: { fetchFullResult: false },
				body: { event: RESULT, data: { id: 'r-free' } },
			},
		]) {
			resetProcessState();
			const first = await deliver({ body: body('r-free'), ...setup });
			const at = clock.now();
			const again = await deliver({ body: body('r-free'), ...setup });
			expect(clock.now()).toBe(at + 50);
			expect(again.out).toEqual(first.out);
			expect(again.written).toEqual(first.written);
		}
	});
});

describe('per trigger', () => {
	test('another webhook, or another workflow, receiving the same completion starts its own', async () => {
		const first = await deliver({
			body: body(),
			workflowId: 'w-1',
			webhookId: 'hook-1',
		});
		await first.n8nAnswers();
		expect(
			started(
				(
					await deliver({
						body: body(),
						workflowId: 'w-1',
						webhookId: 'hook-2',
					})
				).out,
			),
		).toBe(true);
		expect(
			started(
				(
					await deliver({
						body: body(),
						workflowId: 'w-2',
						webhookId: 'hook-1',
					})
				).out,
			),
		).toBe(true);
	});

	test("a workflow's id is taken as text: none and '' are the same workflow", async () => {
		const first = await deliver({ body: body(), workflowId: undefined });
		await first.n8nAnswers();
		const again = await deliver({ body: body(), workflowId: '' });
		expect(again.out.webhookResponse).toMatchObject({ duplicate: true });
	});

	test("another credential is read anew: the former credential's secret no longer works", async () => {
		const NEW = 'cb-secret/strong-0002';
		const before = await deliver({
			body: body('r-2'),
			credential: { id: 'c1', callbackSecret: SECRET },
		});
		expect(started(before.out)).toBe(true);
		const after = await deliver({
			body: body('r-3'),
			credential: { id: 'c2', callbackSecret: NEW },
			query: { token: SECRET },
		});
		expect(after.written[0]).toMatchObject({ status: 401 });
	});

	test("credentials of other types only: no credential of this node's ('s test URL accepts)", async () => {
		const fake = fakeWebhook({
			otherCredentialsOnly: true,
			mode: 'manual',
			body: body('r-4'),
		});
		const out = await settle(handleCallback.call(fake.ctx));
		expect(started(out)).toBe(true);
		expect(fake.requests).toEqual([]);
	});
});
