/**
 * Deferred results and the account webhook (the vendor's SDK docs: a deferred result arrives "later in a
 * webhook that you have set up"), the deferred answer's status switch, and text metadata typed as an object.
 */
import { SAFE_IMAGE_URL, SAFE_TEXT } from '../../../dev/mock/fixtures';
import { expectError, startReceiver, useMockApi } from './mock-api';

const { mock, api } = useMockApi({ processMs: 50, callbackBackoffMs: 20 });

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
let account: Receiver;
let request: Receiver;

beforeEach(async () => {
	account = await startReceiver();
	request = await startReceiver();
	mock.service.configure({ webhookUrl: account.url });
});

afterEach(async () => {
	mock.service.configure({ deferredStatus: 200 });
	await Promise.all([account.stop(), request.stop()]);
});

describe('deferred results go to the account webhook when one is set', () => {
	it.each([
		['an image', '/image', { image: SAFE_IMAGE_URL, options: { defer: true } }],
		['a text', '/text', { text: SAFE_TEXT, options: { defer: true } }],
	])('%s submitted with defer and no callbackUrl: one moderation.completed with the result and its id', async (_name, path, json) => {
		const submitted = await api('POST', path, { json });
		await mock.service.whenIdle(10_000);
		expect(account.deliveries).toHaveLength(1);
		expect(account.deliveries[0].body).toMatchObject({ event: 'moderation.completed', data: { id: submitted.body.id, isSafe: true } });
		expect(mock.service.callbacks.map((attempt) => attempt.url)).toEqual([account.url]);
	});

	it('with a callbackUrl as well, each of the two gets the result once', async () => {
		const submitted = await api('POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: request.url } } });
		await mock.service.whenIdle(10_000);
		for (const receiver of [request, account]) {
			expect(receiver.deliveries.map((d) => [d.body.event, d.body.data.id])).toEqual([['moderation.completed', submitted.body.id]]);
		}
	});

	it('an immediate moderation and a queue item send no moderation.completed there', async () => {
		await api('POST', '/image', { json: { image: SAFE_IMAGE_URL } });
		await api('POST', '/text', { json: { text: SAFE_TEXT } });
		await api('POST', '/queues/account-hook', { json: { type: 'text', content: SAFE_TEXT } });
		await mock.service.whenIdle(10_000);
		expect(account.deliveries).toHaveLength(0);
	});

	it('without an account webhook, a deferred result without a callbackUrl goes nowhere', async () => {
		mock.service.configure({ webhookUrl: null });
		await api('POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { defer: true } } });
		await mock.service.whenIdle(10_000);
		expect(mock.service.callbacks).toHaveLength(0);
	});
});

describe('deferredStatus: a deliberate deviation for the contract check', () => {
	it('answers deferred submissions with that status, and nothing else', async () => {
		mock.service.configure({ deferredStatus: 202 });
		expect((await api('POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { defer: true } } })).status).toBe(202);
		expect((await api('POST', '/text', { json: { text: SAFE_TEXT, options: { callbackUrl: request.url } } })).status).toBe(202);
		expect((await api('POST', '/image', { json: { image: SAFE_IMAGE_URL } })).status).toBe(200);
		expect((await api('POST', '/queues/account-hook', { json: { type: 'text', content: SAFE_TEXT } })).status).toBe(200);
	});

	it('is a 2xx status', () => {
		for (const deferredStatus of [199, 300, 202.5]) expect(() => mock.service.configure({ deferredStatus })).toThrow(RangeError);
	});
});

describe("POST /text metadata is an object (the API reference's options.meta, the SDK's Record<string, any>)", () => {
	it.each([
		['a string', 'post-7'],
		['a number', 7],
		['a list', [1]],
		['null', null],
	])('%s under meta or metadata is 400 naming the key', async (_name, value) => {
		for (const key of ['meta', 'metadata']) {
			const response = await api('POST', '/text', { json: { text: SAFE_TEXT, options: { [key]: value } } });
			expectError(response, 400, 'invalid_type', `options.${key}`);
		}
	});

	it('an object is accepted and returned as meta', async () => {
		const response = await api('POST', '/text', { json: { text: SAFE_TEXT, options: { metadata: { post: 7 } } } });
		expect(response.status).toBe(200);
		expect(response.body.meta).toEqual({ post: 7 });
	});
});
