/** gates.ts: auth, then rate limit, simulated faults and throttling before anything else. */
import { call } from '../../../dev/mock/client';
import { SAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { startMockService } from '../../../dev/mock/server';
import { expectError, useMockApi } from './mock-api';

const { mock, api } = useMockApi({ processMs: 20 });
beforeEach(() => {
	mock.service.configure({ latencyMs: 0, faultRate: 0, throttleRate: 0, rateLimit: 0, retryAfterSeconds: 1 });
});

const submit = (i: number, token?: string | null) =>
	call(mock.service.url, 'POST', '/image', { token, json: { image: SAFE_IMAGE_URL, options: { actorId: `actor-${i}` } } });

describe('auth', () => {
	const routes: Array<[string, string, unknown?]> = [
		['POST', '/image', { image: SAFE_IMAGE_URL }],
		['GET', '/image/00000000-0000-4000-8000-000000000000'],
		['POST', '/queues/main', { type: 'text', content: 'hello there' }],
		['GET', '/queues/main/items/00000000-0000-4000-8000-000000000000'],
		['GET', '/text/00000000-0000-4000-8000-000000000000'],
		['DELETE', '/text/00000000-0000-4000-8000-000000000000'],
		['GET', '/unknown/route'],
	];

	it.each(routes.map(([method, path, json]) => ({ method, path, json })))(
		'$method $path without a token is 401 and acts on nothing',
		async ({ method, path, json }) => {
		const response = await api(method, path, { token: null, json });
		expectError(response, 401, 'unauthorized');
		expect(response.headers['www-authenticate']).toBe('Bearer');
		expect(mock.service.submissions.size).toBe(0);
		expect(mock.service.requests.at(-1)).toMatchObject({ method, path, status: 401 });
		},
	);

	it('refuses a wrong token without echoing it', async () => {
		const response = await api('POST', '/image', { token: 'secret-guess', json: { image: SAFE_IMAGE_URL } });
		expectError(response, 401, 'unauthorized');
		expect(JSON.stringify(response.body)).not.toContain('secret-guess');
		expect(mock.service.submissionLog).toHaveLength(0);
	});

	it('refuses other schemes and accepts a case-insensitive Bearer', async () => {
		const basic = await api('GET', '/image/00000000-0000-4000-8000-000000000000', { token: null, headers: { authorization: 'Basic dGVzdC10b2tlbg==' } });
		expectError(basic, 401, 'unauthorized');
		const lower = await api('GET', '/image/00000000-0000-4000-8000-000000000000', { token: null, headers: { authorization: 'bearer test-token' } });
		expect(lower.status).toBe(404);
	});

	it('takes the token from the options', async () => {
		const other = await startMockService({ token: 'other-token' });
		try {
			expect((await call(other.url, 'GET', '/image/00000000-0000-4000-8000-000000000000')).status).toBe(401);
			expect((await call(other.url, 'GET', '/image/00000000-0000-4000-8000-000000000000', { token: 'other-token' })).status).toBe(404);
		} finally {
			await other.stop();
		}
	});
});

describe('faults', () => {
	it('with faultSeed, answers faults at random: the same sequence for the same seed', async () => {
		const pattern = async () => {
			mock.service.reset();
			const statuses: number[] = [];
			for (let i = 0; i < 40; i++) statuses.push((await submit(i)).status);
			return statuses.join('');
		};
		mock.service.configure({ faultRate: 0.3, faultSeed: 7 });
		const first = await pattern();
		expect(await pattern()).toBe(first);
		const faults = first.split('503').length - 1;
		expect(faults).toBeGreaterThan(4);
		expect(faults).toBeLessThan(20);
		// Not the evenly spread pattern.
		mock.service.configure({ faultSeed: 0 });
		expect(await pattern()).not.toBe(first);
		mock.service.configure({ faultRate: 0 });
	});

	it('with capacity, works on that many at once and answers the rest 503 at once, without Retry-After', async () => {
		mock.service.configure({ capacity: 2, latencyMs: 300 });
		try {
			const started = Date.now();
			const answers = await Promise.all([0, 1, 2, 3].map((i) => submit(i).then((r) => ({ ...r, ms: Date.now() - started }))));
			const refused = answers.filter((r) => r.status === 503);
			expect(answers.filter((r) => r.status === 200)).toHaveLength(2);
			expect(refused).toHaveLength(2);
			for (const r of refused) {
				expect(r.ms).toBeLessThan(250);
				expect(r.headers['retry-after']).toBeUndefined();
			}
			expect(mock.service.submissionLog).toHaveLength(2);
		} finally {
			mock.service.configure({ capacity: 0, latencyMs: 0 });
		}
	});

	it('answers exactly that fraction 503 with Retry-After, before acting', async () => {
		mock.service.configure({ faultRate: 0.5 });
		const responses = [];
		for (let i = 0; i < 10; i++) responses.push(await submit(i));
		const faults = responses.filter((r) => r.status === 503);
		expect(faults).toHaveLength(5);
		expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
		for (const fault of faults) {
			expect(fault.headers['retry-after']).toBe('1');
			expect(fault.body.error).toMatchObject({ status: 503, code: 'service_unavailable' });
		}
		expect(mock.service.submissionLog).toHaveLength(5);
		expect(mock.service.requests.filter((r) => r.status === 503)).toHaveLength(5);
	});

	it('faults before auth and honours retryAfterSeconds 0', async () => {
		mock.service.configure({ faultRate: 1, retryAfterSeconds: 0 });
		const response = await submit(0, null);
		expect(response.status).toBe(503);
		expect(response.headers['retry-after']).toBe('0');
		expect(mock.service.submissions.size).toBe(0);
	});
});

describe('throttling', () => {
	it('answers that fraction 429 throttled with Retry-After, before acting', async () => {
		mock.service.configure({ throttleRate: 0.25, retryAfterSeconds: 2 });
		const responses = [];
		for (let i = 0; i < 8; i++) responses.push(await submit(i));
		expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429, 200, 200, 200, 429]);
		const throttled = responses[3];
		expect(throttled.headers['retry-after']).toBe('2');
		expect(throttled.body.error).toMatchObject({ status: 429, code: 'throttled' });
		expect(mock.service.submissionLog).toHaveLength(6);
	});
});

/**
 * The service's clock, held still while a burst is sent and moved on by hand: what counts is how many
 * requests arrive within the limit's time, not how long a loaded machine takes to send them.
 */
function heldClock() {
	let now = Date.now();
	const spy = jest.spyOn(Date, 'now').mockImplementation(() => now);
	return {
		advance: (ms: number) => (now += ms),
		restore: () => spy.mockRestore(),
	};
}

describe('rate limit', () => {
	it('answers 429 over N requests a second, then accepts again in the next window', async () => {
		const clock = heldClock();
		try {
			mock.service.configure({ rateLimit: 5 });
			const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(i)));
			const limited = burst.filter((r) => r.status === 429);
			expect(burst.filter((r) => r.status === 200)).toHaveLength(5);
			expect(limited).toHaveLength(3);
			for (const response of limited) {
				expect(response.headers['retry-after']).toBe('1');
				expect(response.body.error).toMatchObject({ status: 429, code: 'rate_limited' });
			}
			expect(mock.service.submissionLog).toHaveLength(5);
			clock.advance(999);
			expect((await submit(100)).status).toBe(429);
			clock.advance(1);
			expect((await submit(101)).status).toBe(200);
		} finally {
			clock.restore();
		}
	});
});

describe('token-bucket rate limit', () => {
	afterEach(() => mock.service.configure({ rateLimitBurst: 0 }));

	it('accepts a burst of rateLimitBurst, then refills at rateLimit per second; Retry-After in whole seconds', async () => {
		const clock = heldClock();
		try {
			mock.service.configure({ rateLimit: 20, rateLimitBurst: 4 });
			const burst = await Promise.all(Array.from({ length: 7 }, (_, i) => submit(i)));
			expect(burst.filter((r) => r.status === 200)).toHaveLength(4);
			const limited = burst.filter((r) => r.status === 429);
			expect(limited).toHaveLength(3);
			for (const response of limited) {
				// The next token comes in 50 ms; HTTP's delay-seconds are whole seconds.
				expect(response.headers['retry-after']).toBe('1');
				expect(response.body.error).toMatchObject({ status: 429, code: 'rate_limited' });
			}
			// 20 per second: one token per 50 ms, so 2 after 120 ms, never a full bucket.
			clock.advance(120);
			const next = await Promise.all(Array.from({ length: 4 }, (_, i) => submit(100 + i)));
			expect(next.filter((r) => r.status === 200)).toHaveLength(2);
			expect(mock.service.submissionLog).toHaveLength(6);
			// After a whole second the bucket is full again, and holds no more than its 4.
			clock.advance(1_000);
			const refilled = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(200 + i)));
			expect(refilled.filter((r) => r.status === 200)).toHaveLength(4);
		} finally {
			clock.restore();
		}
	});
});
