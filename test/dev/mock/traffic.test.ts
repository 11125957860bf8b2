import { call } from '../../../dev/mock/client';
import { SAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { startMockService, type MockService } from '../../../dev/mock/server';

let mock: MockService;
beforeAll(async () => {
	mock = await startMockService({ processMs: 20 });
});
afterAll(() => mock.stop());
beforeEach(() => {
	mock.configure({ latencyMs: 0, faultRate: 0, throttleRate: 0, rateLimit: 0, retryAfterSeconds: 1 });
	mock.reset();
});

const submit = (i: number, token?: string | null) =>
	call(mock.url, 'POST', '/image', { token, json: { image: SAFE_IMAGE_URL, options: { actorId: `actor-${i}` } } });

describe('latency', () => {
	it('delays every response, errors included, without serialising them', async () => {
		mock.configure({ latencyMs: 120 });
		for (const response of [await submit(0), await submit(1, null), await call(mock.url, 'GET', '/nowhere')]) {
			expect(response.durationMs).toBeGreaterThanOrEqual(110);
		}
		const started = Date.now();
		const parallel = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(10 + i)));
		expect(parallel.every((r) => r.status === 200)).toBe(true);
		expect(Date.now() - started).toBeLessThan(1_200); // 20 x 120 ms one after another would be 2.4 s
	});

	it('applies latencyMs from the start options', async () => {
		const slow = await startMockService({ latencyMs: 80 });
		try {
			const response = await call(slow.url, 'GET', '/image/abcdef');
			expect(response.status).toBe(404);
			expect(response.durationMs).toBeGreaterThanOrEqual(70);
		} finally {
			await slow.stop();
		}
	});
});

describe('faults', () => {
	it('answers exactly that fraction 503 with Retry-After, before acting', async () => {
		mock.configure({ faultRate: 0.5 });
		const responses = [];
		for (let i = 0; i < 10; i++) responses.push(await submit(i));
		const faults = responses.filter((r) => r.status === 503);
		expect(faults).toHaveLength(5);
		expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
		for (const fault of faults) {
			expect(fault.headers['retry-after']).toBe('1');
			expect(fault.body.error).toMatchObject({ status: 503, code: 'service_unavailable' });
		}
		expect(mock.submissionLog).toHaveLength(5);
		expect(mock.requests.filter((r) => r.status === 503)).toHaveLength(5);
	});

	it('faults before auth and honours retryAfterSeconds 0', async () => {
		mock.configure({ faultRate: 1, retryAfterSeconds: 0 });
		const response = await submit(0, null);
		expect(response.status).toBe(503);
		expect(response.headers['retry-after']).toBe('0');
		expect(mock.submissions.size).toBe(0);
	});
});

describe('throttling', () => {
	it('answers that fraction 429 throttled with Retry-After, before acting', async () => {
		mock.configure({ throttleRate: 0.25, retryAfterSeconds: 2 });
		const responses = [];
		for (let i = 0; i < 8; i++) responses.push(await submit(i));
		expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429, 200, 200, 200, 429]);
		const throttled = responses[3];
		expect(throttled.headers['retry-after']).toBe('2');
		expect(throttled.body.error).toMatchObject({ status: 429, code: 'throttled' });
		expect(mock.submissionLog).toHaveLength(6);
	});
});

describe('rate limit', () => {
	it('answers 429 over N requests a second, then accepts again in the next window', async () => {
		mock.configure({ rateLimit: 5 });
		const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(i)));
		const limited = burst.filter((r) => r.status === 429);
		expect(burst.filter((r) => r.status === 200)).toHaveLength(5);
		expect(limited).toHaveLength(3);
		for (const response of limited) {
			expect(response.headers['retry-after']).toBe('1');
			expect(response.body.error).toMatchObject({ status: 429, code: 'rate_limited' });
		}
		expect(mock.submissionLog).toHaveLength(5);
		await new Promise((resolve) => setTimeout(resolve, 1_050));
		expect((await submit(100)).status).toBe(200);
	});
});

describe('token-bucket rate limit', () => {
	afterEach(() => mock.configure({ rateLimitBurst: 0 }));

	it('accepts a burst of rateLimitBurst, then refills at rateLimit per second; Retry-After in whole seconds', async () => {
		mock.configure({ rateLimit: 20, rateLimitBurst: 4 });
		const burst = await Promise.all(Array.from({ length: 7 }, (_, i) => submit(i)));
		expect(burst.filter((r) => r.status === 200)).toHaveLength(4);
		const limited = burst.filter((r) => r.status === 429);
		expect(limited).toHaveLength(3);
		for (const response of limited) {
			// The next token comes in 50 ms; HTTP's delay-seconds are whole seconds.
			expect(response.headers['retry-after']).toBe('1');
			expect(response.body.error).toMatchObject({ status: 429, code: 'rate_limited' });
		}
		// 20 per second: one token per 50 ms, so 2 after 120 ms (3 if the machine is slow), never a full bucket.
		await new Promise((resolve) => setTimeout(resolve, 120));
		const next = await Promise.all(Array.from({ length: 4 }, (_, i) => submit(100 + i)));
		const accepted = next.filter((r) => r.status === 200).length;
		expect(accepted).toBeGreaterThanOrEqual(2);
		expect(accepted).toBeLessThan(4);
		expect(mock.submissionLog).toHaveLength(4 + accepted);
	});
});

describe('traffic', () => {
	it('counts requests in flight at the service, and their peak', async () => {
		mock.configure({ latencyMs: 100 });
		const pending = Promise.all(Array.from({ length: 6 }, (_, i) => submit(i)));
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(mock.traffic.inFlight).toBe(6);
		await pending;
		expect(mock.traffic).toEqual({ inFlight: 0, peakInFlight: 6 });
		await Promise.all([submit(10), submit(11)]);
		expect(mock.traffic.peakInFlight).toBe(6);
		mock.reset();
		expect(mock.traffic.peakInFlight).toBe(0);
	});
});
