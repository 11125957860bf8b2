/**
 * The client's retries on a fake clock: n8n's sleep and Date.now are faked, so a wait is a call that moves the
 * time on. What a caller sees: the sends, the waits between them, load().resent, cancellation, and what the
 * limiter learns from each answer.
 */
import type * as Workflow from 'n8n-workflow';

jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof Workflow>('n8n-workflow');
	return { ...actual, sleep: jest.fn() };
});

import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { SendOutcome } from '@package/nodes/ContentModeration/limiter/outcome';
import { limiters, serviceKey } from '@package/nodes/ContentModeration/limiter/registry';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { createApiClient, type ClientSettings } from '@package/nodes/ContentModeration/transport/client';
import type { FullResponse } from '@package/nodes/ContentModeration/transport/http';
import { DEFAULT_RETRY_SETTINGS } from '@package/nodes/ContentModeration/retry/policy';
import { contentModerationNode } from '@test/helpers/fixtures';
import { flush } from '@test/helpers/fakeClock';
import { rejection } from '@test/helpers/operationFakes';

const BASE = 'https://cm.test';
const TOKEN = 'sk-live-4f9a2c71d8e3';
const fakeSleep = sleep as jest.MockedFunction<typeof sleep>;
let now = 1_700_000_000_000;

beforeEach(() => {
	resetProcessState();
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	// No jitter: a Retry-After of 2 s is a wait of exactly 2000 ms.
	jest.spyOn(Math, 'random').mockReturnValue(0);
	fakeSleep.mockReset().mockImplementation(async (ms: number) => {
		now += ms;
	});
});
afterEach(() => jest.restoreAllMocks());

/** A context whose helper answers the sends in turn (an Error is thrown), `at` each send's time. */
function fakeContext(answers: Array<FullResponse | Error | (() => Promise<FullResponse>)>) {
	const sent: Array<{ options: IHttpRequestOptions; at: number }> = [];
	const ctx = {
		getNode: () => contentModerationNode,
		getCredentials: async () => ({ baseUrl: BASE, accessToken: TOKEN }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				sent.push({ options, at: now });
				const answer = answers[Math.min(sent.length, answers.length) - 1];
				if (answer instanceof Error) throw answer;
				return typeof answer === 'function' ? await answer() : answer;
			},
		},
	} as unknown as IExecuteFunctions;
	return { ctx, sent };
}

const client = (ctx: IExecuteFunctions, settings: Partial<ClientSettings> = {}) =>
	createApiClient(ctx, { retry: DEFAULT_RETRY_SETTINGS, ...settings });
const get = { method: 'GET', path: '/image/a' } as const;
const status = (statusCode: number, retryAfter?: string): FullResponse => ({
	statusCode,
	headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
	body: { error: { message: `failure ${statusCode}` } },
});
const OK = { statusCode: 200, headers: {}, body: { id: 'a' } };
const refusedConnection = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });

describe('load().resent: the requests refused with 429 or 503 and sent again', () => {
	it('counts each 429 and 503 sent again', async () => {
		const { ctx, sent } = fakeContext([status(429, '0'), status(503, '0'), status(429), OK]);
		const api = client(ctx);
		await expect(api.request(get)).resolves.toMatchObject({ statusCode: 200 });
		expect([sent.length, api.load().resent]).toEqual([4, 3]);
	});

	it('does not count other retries: after a 502, a 500 or a refused connection', async () => {
		const { ctx, sent } = fakeContext([status(502), status(500), refusedConnection(), OK]);
		const api = client(ctx);
		await expect(api.request(get)).resolves.toMatchObject({ statusCode: 200 });
		expect([sent.length, api.load().resent]).toEqual([4, 0]);
	});
});

describe('the waits between tries', () => {
	it("waits the service's Retry-After before sending again", async () => {
		const { ctx, sent } = fakeContext([status(429, '2'), OK]);
		await client(ctx).request(get);
		expect(fakeSleep.mock.calls).toEqual([[2000]]);
		expect(sent[1].at - sent[0].at).toBe(2000);
	});

	it('a retry due at once (Retry-After: 0, no jitter) is sent without a timer', async () => {
		const { ctx, sent } = fakeContext([status(429, '0'), OK]);
		await client(ctx).request(get);
		expect([sent.length, fakeSleep.mock.calls]).toEqual([2, []]);
	});

	it('a run cancelled while its request was out does not wait to retry: it fails as cancelled at once', async () => {
		const run = new AbortController();
		const { ctx, sent } = fakeContext([async () => (run.abort(), status(429, '2')), OK]);
		const error = await rejection(client(ctx, { signal: run.signal }).request(get));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('The execution was cancelled');
		expect([sent.length, fakeSleep.mock.calls]).toEqual([1, []]);
	});
});

describe('the limiter', () => {
	/** What the service's limiter is told with each release. */
	function learned(): SendOutcome[] {
		const outcomes: SendOutcome[] = [];
		const limiter = limiters.limiterFor(serviceKey(BASE, TOKEN));
		const openShare = limiter.openShare.bind(limiter);
		jest.spyOn(limiter, 'openShare').mockImplementation((settings, signal) => {
			const share = openShare(settings, signal);
			return {
				acquire: async (bytes) => {
					const permit = await share.acquire(bytes);
					return { release: (outcome) => (outcomes.push(outcome), permit.release(outcome)) };
				},
			};
		});
		return outcomes;
	}

	it('learns each answer once, with the time it took', async () => {
		const outcomes = learned();
		const { ctx } = fakeContext([async () => ((now += 40), OK)]);
		await client(ctx).request(get);
		expect(outcomes).toEqual([{ kind: 'success', latencyMs: 40 }]);
	});

	it('a place is held until its answer: with Fixed Concurrency 1, the next request waits for it', async () => {
		let answer!: (response: FullResponse) => void;
		const first = new Promise<FullResponse>((resolve) => (answer = resolve));
		const { ctx, sent } = fakeContext([() => first, OK]);
		const api = client(ctx, { limiter: { adaptive: false, cap: 1 } });
		const requests = [api.request(get), api.request({ method: 'GET', path: '/image/b' })];
		await flush();
		expect(sent.map((s) => s.options.url)).toEqual([`${BASE}/image/a`]);
		answer(OK);
		await Promise.all(requests);
		expect(sent.map((s) => s.options.url)).toEqual([`${BASE}/image/a`, `${BASE}/image/b`]);
	});
});
