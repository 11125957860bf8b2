/**
 * handleCallback (webhook.ts) on a fake webhook context: when it reads a result back (Fetch Full Result, the
 * option Accept Callbacks Without a Secret), from where, and what it answers when the read does not complete it.
 */
import type { IDataObject, IHttpRequestOptions, IWebhookResponseData } from 'n8n-workflow';

import { handleCallback } from '@package/nodes/ContentModeration/trigger/webhook';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { fakeWebhook, type FakeWebhookSetup } from '@test/helpers/fakeWebhook';

const RESULT = 'moderation.completed';
const REVIEW = 'queue.review.completed';
const SECRET = 'cb-secret/strong-0001';

const complete = (id: string | undefined, extra: IDataObject = {}): IDataObject => ({
	...(id === undefined ? {} : { id }),
	isSafe: false,
	suggestedActions: { reject: true, review: false },
	riskScores: { overall: 90 },
	nsfwCategories: [{ category: 'violence', severity: 80 }],
	...extra,
});
const unfinished = (id: string, extra: IDataObject = {}): IDataObject => ({
	id,
	status: 'processing',
	...extra,
});
const answering =
	(statusCode: number, body: unknown = {}) =>
	(_: IHttpRequestOptions) => ({ statusCode, body });

async function call(setup: FakeWebhookSetup) {
	const fake = fakeWebhook(setup);
	const out: IWebhookResponseData = await handleCallback.call(fake.ctx);
	return { ...fake, out };
}
const signed = (setup: FakeWebhookSetup) =>
	call({
		credential: { callbackSecret: SECRET },
		query: { token: SECRET },
		...setup,
	});
/** Accepted without a secret by the option: a weak secret, no token. */
const unsigned = (setup: FakeWebhookSetup) =>
	call({
		credential: { callbackSecret: '' },
		parameters: { options: { acceptWithoutSecret: true } },
		...setup,
	});
const itemOf = (out: IWebhookResponseData) => (out.workflowData?.[0]?.[0]?.json ?? {}) as IDataObject;
const refusal = (status: number, message: string) => [
	{ status, body: { received: false, error: { status, message } } },
];

beforeEach(() => resetProcessState());

describe('signed callbacks: Fetch Full Result', () => {
	test('an unfinished result is read back (image) and starts with the read verdict', async () => {
		const read = complete(undefined, { description: 'read' });
		const { out, requests } = await signed({
			body: { event: RESULT, data: unfinished('r-1', { description: 'x' }) },
			answer: answering(200, read),
		});
		expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET http://service.test/image/r-1']);
		expect(itemOf(out)).toMatchObject({ ...read, id: 'r-1', event: RESULT });
	});

	test('a text result is read from /text', async () => {
		const { requests } = await signed({
			body: { event: RESULT, data: unfinished('r-2', { original: 'hi' }) },
			answer: answering(200, complete(undefined)),
		});
		expect(requests.map((r) => r.url)).toEqual(['http://service.test/text/r-2']);
	});

	test('Fetch Full Result off: an unfinished result is refused 422 for good, nothing read', async () => {
		const { out, written, requests } = await signed({
			body: { event: RESULT, data: unfinished('r-3') },
			parameters: { fetchFullResult: false },
		});
		expect(out).toEqual({ noWebhookResponse: true });
		expect(requests).toEqual([]);
		expect(written).toEqual(
			refusal(
				422,
				'The callback carries no complete result (no boolean isSafe in the callback), and Fetch Full Result is off or no credential is selected',
			),
		);
	});

	test('a read that fails (404, not stored yet): 503, asking to try again', async () => {
		const { written } = await signed({
			body: { event: RESULT, data: unfinished('r-4') },
			answer: answering(404),
		});
		expect(written).toEqual(refusal(503, 'Reading moderation r-4 failed (HTTP 404); try this callback again'));
	});

	test('a read refused (403, a wrong key say): 503, nothing started, so the verdict comes once the read works', async () => {
		const { out, written } = await signed({
			body: { event: RESULT, data: unfinished('r-5') },
			answer: answering(403, { message: 'forbidden' }),
		});
		expect(out).toEqual({ noWebhookResponse: true });
		expect(written).toEqual(refusal(503, 'Reading moderation r-5 failed (HTTP 403); try this callback again'));
	});

	test('a failed read is logged as well (the answer reaches only the sender), the secret masked, on one line', async () => {
		const { warnings, written } = await signed({
			body: { event: RESULT, data: unfinished(`r-${SECRET}\n2026-01-01 | error | forged\u001b[31m`) },
			answer: answering(401, { message: 'Unauthorized' }),
		});
		expect(warnings).toEqual(['Reading moderation r-*** 2026-01-01 | error | forged [31m failed (HTTP 401)']);
		expect(JSON.stringify(written)).not.toContain(SECRET);
		// Refused with no read made: nothing to log.
		const unread = await signed({ body: { event: RESULT, data: unfinished('r-6') }, parameters: { fetchFullResult: false } });
		expect(unread.written).toEqual(refusal(422, expect.stringContaining('Fetch Full Result is off')));
		expect(unread.warnings).toEqual([]);
	});

	test('without a Callback Secret nothing is logged: a stranger could fill the log', async () => {
		const { written, warnings } = await unsigned({
			body: { event: RESULT, data: unfinished('r-7') },
			answer: answering(500, { message: 'down' }),
		});
		expect(written).toEqual(refusal(503, 'Reading moderation r-7 failed (HTTP 500); try this callback again'));
		expect(warnings).toEqual([]);
	});

	test('a review decision and an event this node does not know pass as they came, never read', async () => {
		const item = {
			id: 'q-1',
			status: 'accepted',
			accepted: true,
			type: 'text',
			content: 'hi',
		};
		const review = await signed({ body: { event: REVIEW, data: item } });
		expect(itemOf(review.out)).toMatchObject({ ...item, event: REVIEW });
		const other = { id: 'o-1', queueId: 'q-main' };
		const any = await signed({
			body: { event: 'queue.item.deleted', data: other },
			parameters: { eventTypes: 'any' },
		});
		expect(any.written).toEqual([]);
		expect(itemOf(any.out)).toMatchObject({
			...other,
			event: 'queue.item.deleted',
		});
		expect([...review.requests, ...any.requests]).toEqual([]);
	});

	test('a complete result with no error starts without an error field', async () => {
		const { out } = await signed({
			body: { event: RESULT, data: complete('r-6') },
		});
		expect(itemOf(out)).not.toHaveProperty('error');
	});
});

describe('accepted without a secret: results read back, the rest refused', () => {
	const UNREADABLE =
		'Accepted without a Callback Secret, only a moderation result with an id is taken (it is read back from the service); review decisions and other events need the Callback Secret';

	test('a review decision (with an id) is refused 401', async () => {
		const item = {
			id: 'q-2',
			status: 'accepted',
			accepted: true,
			type: 'text',
			content: 'hi',
		};
		const { written, requests } = await unsigned({
			body: { event: REVIEW, data: item },
		});
		expect(written).toEqual(refusal(401, UNREADABLE));
		expect(requests).toEqual([]);
	});

	test('a result without an id is refused 401', async () => {
		const { written } = await unsigned({
			body: { event: RESULT, data: complete(undefined) },
		});
		expect(written).toEqual(refusal(401, UNREADABLE));
	});

	test("a complete result is read back all the same; only the read's fields start the workflow", async () => {
		const read = complete(undefined, { isSafe: true, description: 'read' });
		const { out, requests, written } = await unsigned({
			body: {
				event: RESULT,
				data: complete('r-7', { description: 'claimed', extra: 'x' }),
			},
			answer: answering(200, read),
		});
		expect(written).toEqual([]);
		expect(requests).toHaveLength(1);
		const { receivedAt: _, ...item } = itemOf(out);
		expect(item).toEqual({ ...read, id: 'r-7', event: RESULT });
	});

	test('a result the service does not have: 404', async () => {
		const { written } = await unsigned({
			body: { event: RESULT, data: complete('r-8') },
			answer: answering(404),
		});
		expect(written).toEqual(refusal(404, 'The service has no result r-8 to read back'));
	});
});
