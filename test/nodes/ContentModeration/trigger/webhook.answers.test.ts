/**
 * handleCallback (webhook.ts) on its own, on a fake webhook context: what it answers, the item it starts the
 * workflow with, the events and verdicts it passes, and what it redacts.
 */
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import { handleCallback } from '@package/nodes/ContentModeration/trigger/webhook';
import { TEST_URL_NOTE } from '@package/nodes/ContentModeration/inbound/secretRule';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { fakeWebhook, type FakeWebhookSetup } from '@test/helpers/fakeWebhook';

const RESULT = 'moderation.completed';
const REVIEW = 'queue.review.completed';
const SECRET = 'cb-secret/strong-0001';

const complete = (id: string | undefined, extra: IDataObject = {}): IDataObject => ({
	...(id === undefined ? {} : { id }),
	isSafe: true,
	suggestedActions: { reject: false, review: false },
	riskScores: { overall: 1 },
	nsfwCategories: [],
	...extra,
});

/** Calls the trigger; `signed`: a credential with a strong secret and the right token on the call. */
async function call(setup: FakeWebhookSetup, signed = true) {
	const fake = fakeWebhook(
		signed
			? {
					credential: { callbackSecret: SECRET },
					query: { token: SECRET },
					...setup,
				}
			: setup,
	);
	const out: IWebhookResponseData = await handleCallback.call(fake.ctx);
	return { ...fake, out };
}
const itemOf = (out: IWebhookResponseData) => (out.workflowData?.[0]?.[0]?.json ?? {}) as IDataObject;

beforeEach(() => resetProcessState());

describe('a result that starts the workflow', () => {
	test('the answer acknowledges; the item is the result with receivedAt and event; nothing read', async () => {
		const data = complete('r-1', { description: 'a cat' });
		const before = Date.now();
		const { out, written, requests } = await call({
			body: { event: RESULT, data },
		});
		expect(written).toEqual([]);
		expect(requests).toEqual([]);
		expect(out.webhookResponse).toEqual({
			received: true,
			event: RESULT,
			id: 'r-1',
		});
		expect(out.workflowData).toHaveLength(1);
		expect(out.workflowData?.[0]).toHaveLength(1);
		const { receivedAt, ...item } = itemOf(out);
		expect(item).toEqual({ ...data, event: RESULT });
		expect(Date.parse(receivedAt as string)).toBeGreaterThanOrEqual(before - 1);
	});

	test("the editor's test URL: the item says it was accepted without a secret", async () => {
		const { out } = await call({ mode: 'manual', body: { event: RESULT, data: complete('r-2') } }, false);
		expect(itemOf(out).callbackSecretNotice).toBe(TEST_URL_NOTE);
	});

	test('no id: the answer warns that a repeat starts the workflow again', async () => {
		const { out } = await call({
			body: { event: RESULT, data: complete(undefined) },
		});
		expect(out.webhookResponse).toEqual({
			received: true,
			event: RESULT,
			id: null,
			warning: 'No id: a delivery of this completion again starts the workflow again',
		});
		expect(itemOf(out).id).toBeNull();
	});

	test('Include Request: the headers and query, redacted, and a token a header carries in a URL', async () => {
		const headers = {
			'x-original-url': 'https://n8n.test/webhook/h?token=tok-proxy-5678',
			'x-trace': 'tr-1',
			n: 3,
		};
		const data = complete('r-3', { note: 'copied tok-proxy-5678' });
		const { out } = await call({
			body: { event: RESULT, data },
			headers,
			parameters: { options: { includeRequest: true } },
		});
		const item = itemOf(out);
		expect(item.note).toBe('copied ***');
		expect(item.headers).toMatchObject({ 'x-trace': 'tr-1' });
		expect(JSON.stringify(item.headers)).not.toContain('tok-proxy-5678');
		expect(item.query).toEqual({
			token: expect.not.stringContaining(SECRET) as unknown,
		});
		const off = await call({
			body: { event: RESULT, data: complete('r-4') },
			headers,
			parameters: { options: {} },
		});
		expect(itemOf(off.out)).not.toHaveProperty('headers');
		expect(itemOf(off.out)).not.toHaveProperty('query');
	});
});

describe('what is redacted', () => {
	test("tokens the call carried are redacted, with or without a credential, though they are not the credential's", async () => {
		const token = 'tok-carried-0001';
		const data = complete('r-5', { note: `echo ${token}` });
		const withCredential = await call(
			{
				mode: 'manual',
				credential: { callbackSecret: '' },
				query: { token },
				body: { event: RESULT, data },
			},
			false,
		);
		expect(itemOf(withCredential.out).note).toBe('echo ***');
		resetProcessState();
		const without = await call(
			{
				mode: 'manual',
				headers: { 'x-callback-token': token },
				body: { event: RESULT, data },
			},
			false,
		);
		expect(itemOf(without.out).note).toBe('echo ***');
	});

	test('nothing else is: any other text passes as it came (Stryker was here)', async () => {
		const text = 'Stryker was here';
		const data = complete('r-6', { note: text });
		const { out } = await call({ mode: 'manual', body: { event: RESULT, data } }, false);
		expect(itemOf(out).note).toBe(text);
		const unknown = await call({ body: { event: text } });
		expect(unknown.out.webhookResponse).toMatchObject({ event: text });
	});
});

describe('bodies that start nothing', () => {
	test('an unknown event without a data object: acknowledged, nothing starts', async () => {
		const { out, written } = await call({ body: { event: 'account.updated' } });
		expect(written).toEqual([]);
		expect(out).toEqual({
			webhookResponse: {
				received: true,
				event: 'account.updated',
				ignored: 'event "account.updated" carries no data object',
			},
		});
	});

	test.each<[string, unknown]>([
		['a result without data', { event: RESULT, data: 'abc' }],
		['a review decision without data', { event: REVIEW }],
		['no event at all', 'hello'],
	])('%s: 400', async (_, body) => {
		const { out, written } = await call({ body });
		expect(out).toEqual({ noWebhookResponse: true });
		expect(written).toHaveLength(1);
		expect(written[0]).toMatchObject({
			status: 400,
			body: { received: false, error: { status: 400 } },
		});
	});

	test('an event not selected: acknowledged with the reason', async () => {
		const data = {
			id: 'q-1',
			status: 'accepted',
			accepted: true,
			type: 'text',
			content: 'hi',
		};
		const { out } = await call({
			body: { event: REVIEW, data },
			parameters: { eventTypes: 'results' },
		});
		expect(out).toEqual({
			webhookResponse: {
				received: true,
				event: REVIEW,
				id: 'q-1',
				ignored: 'review decisions are not selected',
			},
		});
	});

	test('a result the verdict filter holds back: acknowledged with the reason; a review decision always passes', async () => {
		const flaggedOnly = await call({
			body: { event: RESULT, data: complete('r-7') },
			parameters: { events: 'flagged' },
		});
		expect(flaggedOnly.out).toEqual({
			webhookResponse: {
				received: true,
				event: RESULT,
				id: 'r-7',
				ignored: 'not flagged',
			},
		});
		const unsafe = complete('r-8', { isSafe: false });
		const safeOnly = await call({
			body: { event: RESULT, data: unsafe },
			parameters: { events: 'safe' },
		});
		expect(safeOnly.out.webhookResponse).toMatchObject({ ignored: 'flagged' });
		const data = {
			id: 'q-2',
			status: 'rejected',
			accepted: false,
			type: 'text',
			content: 'hi',
		};
		const review = await call({
			body: { event: REVIEW, data },
			parameters: { events: 'safe' },
		});
		expect(review.out.webhookResponse).toEqual({
			received: true,
			event: REVIEW,
			id: 'q-2',
		});
		expect(itemOf(review.out)).toMatchObject({ ...data, event: REVIEW });
	});
});
