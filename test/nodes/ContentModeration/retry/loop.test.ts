import { RETRY_AFTER_JITTER_MS, type TryOutcome } from '@package/nodes/ContentModeration/retry/policy';
import { retryNote, withRetries } from '@package/nodes/ContentModeration/retry/loop';
import { failure, network, NOW, settings, status } from './outcomes';

describe('withRetries', () => {
	type Res = { statusCode: number; retryAfter?: string };
	const statusOf = (r: Res): TryOutcome | undefined =>
		r.statusCode < 300 ? undefined : { kind: 'status', statusCode: r.statusCode, retryAfter: r.retryAfter };

	function script(steps: Array<Res | Error>) {
		const sleeps: number[] = [];
		let sends = 0;
		return {
			sleeps,
			sends: () => sends,
			attempts: {
				send: async () => {
					const step = steps[Math.min(sends++, steps.length - 1)];
					if (step instanceof Error) throw step;
					return step;
				},
				statusOf,
				sleep: async (ms: number) => {
					sleeps.push(ms);
				},
				now: () => NOW,
				random: () => 0.5,
			},
		};
	}

	it('retries a POST through 503+Retry-After and 429, then succeeds', async () => {
		const s = script([{ statusCode: 503, retryAfter: '1' }, { statusCode: 429 }, { statusCode: 200 }]);
		const out = await withRetries('POST', settings, s.attempts);
		expect(out).toEqual({ kind: 'success', result: { statusCode: 200 }, retries: 2 });
		// Retry-After 1 s plus jitter, held at maxDelayMs (1 s here); then backoff for the bare 429.
		expect(s.sleeps).toEqual([1000, 100]);
		expect(s.sends()).toBe(3);
	});

	it('sends a POST only once on a 500 or a 502', async () => {
		for (const code of [500, 502]) {
			const s = script([{ statusCode: code }, { statusCode: 200 }]);
			const out = await withRetries('POST', settings, s.attempts);
			expect(out).toMatchObject({ kind: 'status', retries: 0, stoppedBecause: 'not-retryable' });
			expect(s.sends()).toBe(1);
			expect(s.sleeps).toEqual([]);
		}
	});

	it('sends a POST only once on a connection reset, but retries a refused connection', async () => {
		const reset = script([Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), { statusCode: 200 }]);
		const failed = await withRetries('POST', settings, reset.attempts);
		expect(failed).toMatchObject({ kind: 'network', retries: 0, stoppedBecause: 'not-retryable' });
		expect(reset.sends()).toBe(1);

		const refused = script([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), { statusCode: 201 }]);
		expect(await withRetries('POST', settings, refused.attempts)).toMatchObject({ kind: 'success', retries: 1 });
		expect(refused.sends()).toBe(2);
	});

	it('retries a GET on 5xx and network errors', async () => {
		const s = script([
			{ statusCode: 502 },
			Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
			{ statusCode: 200 },
		]);
		expect(await withRetries('GET', settings, s.attempts)).toMatchObject({ kind: 'success', retries: 2 });
		expect(s.sleeps).toEqual([50, 100]);
	});

	it('gives up after maxRetries + 1 tries and returns the last failure', async () => {
		const s = script([{ statusCode: 429, retryAfter: '1' }]);
		const out = await withRetries('POST', { ...settings, maxDelayMs: 5000 }, s.attempts);
		expect(out).toMatchObject({ kind: 'status', retries: 3, stoppedBecause: 'exhausted', result: { statusCode: 429 } });
		expect(s.sends()).toBe(4);
		expect(s.sleeps).toEqual([1, 2, 3].map(() => 1000 + RETRY_AFTER_JITTER_MS / 2));
	});

	it('returns the network error after the last try', async () => {
		const err = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
		const s = script([err]);
		const out = await withRetries('GET', { ...settings, maxRetries: 1 }, s.attempts);
		expect(out).toEqual({
			kind: 'network',
			error: err,
			retries: 1,
			stoppedBecause: 'exhausted',
			method: 'GET',
			lastTry: { kind: 'network', code: 'ECONNREFUSED' },
		});
		expect(s.sends()).toBe(2);
	});

	it('returns the last try as the policy judged it, and the wait a too-long Retry-After asked for', async () => {
		const s = script([{ statusCode: 503, retryAfter: '0' }, { statusCode: 429, retryAfter: '120' }]);
		expect(await withRetries('POST', settings, s.attempts)).toEqual({
			kind: 'status',
			result: { statusCode: 429, retryAfter: '120' },
			retries: 1,
			stoppedBecause: 'retry-after-too-long',
			method: 'POST',
			lastTry: status(429, '120'),
			retryAfterMs: 120_000,
			maxDelayMs: settings.maxDelayMs,
		});
	});
});

describe('retryNote', () => {
	it('says how often it tried when it gave up', () => {
		expect(retryNote(failure('POST', status(429), 3, 'exhausted'))).toBe(
			'Gave up after 4 tries; raise Max Retries or lower Max Concurrency (or Fixed Concurrency).',
		);
	});

	it('explains a Retry-After longer than the cap', () => {
		expect(retryNote(failure('POST', status(503, '120'), 0, 'retry-after-too-long', { retryAfterMs: 120_000, maxDelayMs: 30_000 }))).toBe(
			'The service asked to wait 120 s before trying again, longer than the 30 s this node waits at most; stopped after 1 try.',
		);
	});

	it('explains why a POST was not sent again after a failure a read would retry', () => {
		expect(retryNote(failure('POST', status(500), 0, 'not-retryable'))).toMatch(/^Not sent again: a POST is retried only/);
		expect(retryNote(failure('POST', network('ECONNRESET'), 0, 'not-retryable'))).toMatch(/^Not sent again/);
	});

	it('says a POST answered by a bare 503 may have been acted on, and how to check', () => {
		const note = retryNote(failure('POST', status(503), 0, 'not-retryable'));
		expect(note).toMatch(/^Not sent again: this 503 carries neither a Retry-After nor a JSON body/);
		expect(note).toContain('received the POST, which may have been acted on');
		expect(retryNote(failure('GET', status(503), 5, 'exhausted'))).toMatch(/^Gave up after 6 tries/);
		expect(retryNote(failure('GET', status(503), 1, 'not-retryable'))).toBe('Stopped after 2 tries.');
	});

	it('explains a long Retry-After only when it knows both waits', () => {
		expect(retryNote(failure('GET', status(429, '120'), 0, 'retry-after-too-long', { retryAfterMs: 120_000 }))).toBeUndefined();
	});

	it('says nothing for failures no method would retry', () => {
		expect(retryNote(failure('POST', status(400), 0, 'not-retryable'))).toBeUndefined();
		expect(retryNote(failure('GET', status(404), 0, 'not-retryable'))).toBeUndefined();
		expect(retryNote(failure('GET', status(404), 1, 'not-retryable'))).toBe('Stopped after 2 tries.');
	});
});
