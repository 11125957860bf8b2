/**
 * The client without n8n's engine: a fake context whose HTTP helper records each call (its options, the
 * credential it is handed, the context it is called on) and answers it. What a caller sees: the requests,
 * the errors and the secrets masked in them, the credential reads, the load.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { INITIAL_LIMIT } from '@package/nodes/ContentModeration/limiter/adaptiveLimit';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { createApiClient, type ClientSettings } from '@package/nodes/ContentModeration/transport/client';
import type { FullResponse } from '@package/nodes/ContentModeration/transport/http';
import { DEFAULT_RETRY_SETTINGS } from '@package/nodes/ContentModeration/retry/policy';
import { contentModerationNode } from '@test/helpers/fixtures';
import { rejection } from '@test/helpers/operationFakes';

const BASE = 'https://cm.test';
const TOKEN = 'sk-live-4f9a2c71d8e3';
const CALLBACK_SECRET = 'cb-secret-7e21b9d04a66';

interface Call {
	options: IHttpRequestOptions;
	credential: unknown;
	cancelSignal: AbortSignal | undefined;
}

/** A context reading `credential` (a function: each read) and answering every request with `answer`. */
function fakeContext(
	credential: IDataObject | (() => Promise<IDataObject>) = { baseUrl: BASE, accessToken: TOKEN },
	answer: (options: IHttpRequestOptions) => FullResponse = () => ({ statusCode: 200, body: { ok: true } }),
	node: INode = contentModerationNode,
) {
	const calls: Call[] = [];
	const executionSignal = new AbortController().signal;
	const getCredentials = jest.fn(async () => (typeof credential === 'function' ? await credential() : credential));
	const ctx = {
		getNode: () => node,
		getCredentials,
		getExecutionCancelSignal: () => executionSignal,
		helpers: {
			async httpRequestWithAuthentication(
				this: IExecuteFunctions,
				_type: string,
				options: IHttpRequestOptions,
				extra: { credentialsDecrypted: unknown },
			) {
				// n8n-core sets the request's abortSignal from the context it is called on.
				calls.push({ options, credential: extra.credentialsDecrypted, cancelSignal: this.getExecutionCancelSignal?.() });
				return answer(options);
			},
		},
	} as unknown as IExecuteFunctions;
	return { ctx, calls, getCredentials, executionSignal };
}

const client = (ctx: IExecuteFunctions, settings: Partial<ClientSettings> = {}) =>
	createApiClient(ctx, { retry: { ...DEFAULT_RETRY_SETTINGS, maxRetries: 0 }, ...settings });

beforeEach(() => resetProcessState());

describe('the credential: read once per client, on first use', () => {
	it('one read serves all the requests and calls of a client', async () => {
		const { ctx, getCredentials } = fakeContext({ baseUrl: BASE, accessToken: TOKEN, callbackSecret: CALLBACK_SECRET });
		const api = client(ctx);
		await api.request({ method: 'GET', path: '/image/a' });
		await api.request({ method: 'GET', path: '/image/b' });
		expect([await api.baseUrl(), await api.callbackSecret()]).toEqual([BASE, CALLBACK_SECRET]);
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it('a failed read is not kept: the next request reads again and goes out', async () => {
		let reads = 0;
		const { ctx, calls } = fakeContext(async () => {
			if (++reads === 1) throw new Error('credential store unavailable');
			return { baseUrl: BASE, accessToken: TOKEN };
		});
		const api = client(ctx);
		await expect(api.request({ method: 'GET', path: '/image/a' })).rejects.toThrow('credential store unavailable');
		await expect(api.request({ method: 'GET', path: '/image/a' })).resolves.toMatchObject({ statusCode: 200 });
		expect([reads, calls.length]).toEqual([2, 1]);
	});

	it("n8n's helper gets the credential read, named as the node names it ('' when the node has no reference)", async () => {
		const data = { baseUrl: BASE, accessToken: TOKEN };
		const named = { ...contentModerationNode, credentials: { contentModerationApi: { id: 'cred-7', name: 'ContentMod prod' } } };
		for (const [node, id, name] of [
			[named, 'cred-7', 'ContentMod prod'],
			[contentModerationNode, '', ''],
		] as const) {
			const { ctx, calls } = fakeContext(data, undefined, node);
			await client(ctx).request({ method: 'GET', path: '/image/a' });
			expect(calls[0].credential).toEqual({ id, name, type: 'contentModerationApi', data });
		}
	});

	it.each([
		['both set', { accessToken: TOKEN, callbackSecret: CALLBACK_SECRET }, CALLBACK_SECRET, [TOKEN, CALLBACK_SECRET]],
		['an empty Callback Secret', { accessToken: TOKEN, callbackSecret: '' }, '', [TOKEN]],
		['no Callback Secret', { accessToken: TOKEN }, '', [TOKEN]],
		['a Callback Secret that is not text', { accessToken: TOKEN, callbackSecret: 42 }, '', [TOKEN]],
	])('callbackSecret() and credentialSecrets() with %s: only set text values', async (_label, data, secret, secrets) => {
		const api = client(fakeContext({ baseUrl: BASE, ...data }).ctx);
		expect(await api.callbackSecret()).toBe(secret);
		expect(await api.credentialSecrets()).toEqual(secrets);
	});

	it('secrets: the Secret Key and Callback Secret once the credential is read, nothing else', async () => {
		const api = client(fakeContext({ baseUrl: BASE, accessToken: TOKEN, callbackSecret: CALLBACK_SECRET }).ctx);
		expect(api.secrets).toEqual([]);
		await api.baseUrl();
		expect(api.secrets).toEqual([TOKEN, CALLBACK_SECRET]);
	});
});

describe('no secret reaches an error', () => {
	const echoing = (text: string) => () => ({
		statusCode: 400,
		headers: { 'content-type': 'application/json' },
		body: { error: { message: text }, echoed: text },
	});
	const leaks = (error: Error, secrets: string[]) =>
		secrets.filter((secret) => JSON.stringify({ ...error, message: error.message, stack: error.stack }).includes(secret));

	it('the Secret Key and the Callback Secret echoed by the service are masked in the error', async () => {
		const { ctx } = fakeContext(
			{ baseUrl: BASE, accessToken: TOKEN, callbackSecret: CALLBACK_SECRET },
			echoing(`rejected key ${TOKEN} for ${BASE}/cb?token=${CALLBACK_SECRET}`),
		);
		const error = await rejection(client(ctx).request({ method: 'POST', path: '/text', body: { text: 'hi' }, itemIndex: 2 }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(`The Content Moderation Service answered 400: rejected key *** for ${BASE}/cb?token=***`);
		expect(leaks(error, [TOKEN, CALLBACK_SECRET])).toEqual([]);
	});

	it("a request's own secrets are masked along with the credential's", async () => {
		const own = 'item-key-0c93d1f5ab27';
		const { ctx } = fakeContext({ baseUrl: BASE, accessToken: TOKEN }, echoing(`bad ${own} with ${TOKEN}`));
		const error = await rejection(client(ctx).request({ method: 'POST', path: `/text/${own}`, body: { text: 'hi' }, secrets: [own] }));
		expect(error.message).toBe('The Content Moderation Service answered 400: bad *** with ***');
		expect(leaks(error, [own, TOKEN])).toEqual([]);
	});

	it('an invalid Base URL: an input error of the item, saying what to enter, nothing sent', async () => {
		const { ctx, calls } = fakeContext({ baseUrl: 'ftp://cm.test', accessToken: TOKEN });
		const error = await rejection(client(ctx).request({ method: 'GET', path: '/image/a', itemIndex: 4 }));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect([error.message, error.description, (error as NodeOperationError).context.itemIndex]).toEqual([
			'The Base URL "ftp://cm.test" of the Content Moderation API credential must start with http:// or https://',
			'Open the credential and enter the service address, for example https://moderation.example.com',
			4,
		]);
		expect(calls).toEqual([]);
	});
});

describe('bodies', () => {
	it('a plain body is sent as it is', async () => {
		const { ctx, calls } = fakeContext();
		await client(ctx).request({ method: 'POST', path: '/text', body: { text: 'hi', options: { actorId: 'u-1' } } });
		expect(calls.map((call) => [call.options.method, call.options.url, call.options.body])).toEqual([
			['POST', `${BASE}/text`, { text: 'hi', options: { actorId: 'u-1' } }],
		]);
	});

	it('a binary n8n cannot give back: an input error saying so, its cause after', async () => {
		const { ctx, calls } = fakeContext();
		const read = async () => Promise.reject(new Error('ENOENT: no such file /data/binary/abc'));
		const error = await rejection(client(ctx).request({ method: 'POST', path: '/image', body: { bodyBytes: 10, read }, itemIndex: 1 }));
		expect(error.message).toBe('Could not read the image to send');
		expect(error.description).toBe(
			"n8n could not give back the binary file's data. Check that the file still exists in n8n's binary data store, then run the workflow again. (ENOENT: no such file /data/binary/abc)",
		);
		expect(calls).toEqual([]);
	});
});

describe('places in the limiter', () => {
	it("a helper that throws before returning a promise gives its place back: the next request of a Fixed Concurrency 1 run goes out", async () => {
		let first = true;
		const { ctx, calls } = fakeContext();
		const answering = ctx.helpers.httpRequestWithAuthentication;
		ctx.helpers.httpRequestWithAuthentication = function (this: IExecuteFunctions, ...args: Parameters<typeof answering>) {
			if (first) {
				first = false;
				throw new Error('socket refused at once');
			}
			return answering.apply(this, args);
		} as typeof answering;
		const api = client(ctx, { limiter: { adaptive: false, cap: 1 } });
		await expect(api.request({ method: 'GET', path: '/image/a' })).rejects.toThrow();
		const second = api.request({ method: 'GET', path: '/image/b' }).then((response) => response.statusCode);
		const stuck = new Promise((resolve) => setTimeout(() => resolve('still waiting for a place'), 2000).unref());
		expect(await Promise.race([second, stuck])).toBe(200);
		expect(calls.map((call) => call.options.url)).toEqual([`${BASE}/image/b`]);
	});

	it('a helper that answers without a promise is taken as answered, and its place given back', async () => {
		const { ctx } = fakeContext();
		ctx.helpers.httpRequestWithAuthentication = (() => ({ statusCode: 200, body: { id: 'plain' } })) as unknown as typeof ctx.helpers.httpRequestWithAuthentication;
		const api = client(ctx, { limiter: { adaptive: false, cap: 1 } });
		expect((await api.request({ method: 'GET', path: '/image/a' })).body).toEqual({ id: 'plain' });
		expect((await api.request({ method: 'GET', path: '/image/b' })).body).toEqual({ id: 'plain' });
	});
});

describe("the run's cancel signal", () => {
	it("n8n's helper is called on a context whose cancel signal is the run's own (a failed run's requests end too)", async () => {
		const run = new AbortController();
		const { ctx, calls, executionSignal } = fakeContext();
		await client(ctx, { signal: run.signal }).request({ method: 'GET', path: '/image/a' });
		expect(calls[0].cancelSignal).toBe(run.signal);
		expect(calls[0].cancelSignal).not.toBe(executionSignal);
	});

	it('a cancelled run sends nothing: its request fails as cancelled', async () => {
		const run = new AbortController();
		run.abort();
		const { ctx, calls } = fakeContext();
		const error = await rejection(client(ctx, { signal: run.signal }).request({ method: 'GET', path: '/image/a' }));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('The execution was cancelled');
		expect(calls).toEqual([]);
	});
});

describe('load().limit: the sends at a time this run may have now', () => {
	it('Fixed Concurrency: its number', () => {
		expect(client(fakeContext().ctx, { limiter: { adaptive: false, cap: 5 } }).load()).toEqual({ resent: 0, limit: 5 });
	});

	it("Adaptive: 1 before the first send, then the service's limit within Max Concurrency", async () => {
		const { ctx } = fakeContext();
		const unbounded = client(ctx);
		expect(unbounded.load().limit).toBe(1);
		await unbounded.request({ method: 'GET', path: '/image/a' });
		expect(unbounded.load().limit).toBe(INITIAL_LIMIT);
		const capped = client(ctx, { limiter: { adaptive: true, cap: 3 } });
		await capped.request({ method: 'GET', path: '/image/a' });
		expect(capped.load().limit).toBe(3);
	});
});
