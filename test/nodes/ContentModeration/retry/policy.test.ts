import {
	RETRY_AFTER_JITTER_MS,
	MIN_RETRY_AFTER_JITTER_MS,
	backoffDelay,
	decideRetry,
	isRetryable,
	networkErrorCode,
	parseRetryAfter,
	type TryOutcome,
} from '@package/nodes/ContentModeration/retry/policy';
import { network, NOW, settings, status } from './outcomes';


describe('parseRetryAfter', () => {
	it.each([
		['0', 0],
		['1', 1000],
		[' 30 ', 30_000],
		['1.5', 1500],
		[2, 2000],
		[['3'], 3000],
		['Sat, 21 Nov 2026 12:00:05 GMT', 5000],
		['Sat, 21 Nov 2026 11:59:00 GMT', 0],
	])('%p -> %p ms', (value, expected) => {
		expect(parseRetryAfter(value, NOW)).toBe(expected);
	});

	it.each([undefined, null, '', 'soon', '-1', -1, '1e3', {}])('%p is unreadable', (value) => {
		expect(parseRetryAfter(value, NOW)).toBeUndefined();
	});
});

describe('backoffDelay (full jitter)', () => {
	it('draws from [0, base * 2^n], capped at maxDelayMs', () => {
		expect(backoffDelay(0, settings, () => 0.999999)).toBe(99);
		expect(backoffDelay(2, settings, () => 0.5)).toBe(200);
		expect(backoffDelay(3, settings, () => 0.999999)).toBe(799);
		expect(backoffDelay(10, settings, () => 0.999999)).toBe(999);
		expect(backoffDelay(10, settings, () => 0)).toBe(0);
	});
});

describe('isRetryable: which failures may be sent again', () => {
	it.each([
		// POST: only where the service cannot have acted.
		['POST', status(429), true],
		['POST', status(429, '1'), true],
		['POST', status(503, '1'), true],
		['POST', status(503, 'Sat, 21 Nov 2026 12:00:00 GMT'), true],
		['POST', { ...status(503), jsonBody: true }, true],
		// A bare 503 (a proxy's page) may come after the service read the request.
		['POST', status(503), false],
		['POST', { ...status(503), jsonBody: false }, false],
		['POST', status(503, 'garbage'), false],
		['POST', { ...status(429), jsonBody: false }, true],
		// Retry-After or a JSON body marks a refusal only on a 503: a 500 or 502 may come after the service acted.
		['POST', status(500, '1'), false],
		['POST', { ...status(502), jsonBody: true }, false],
		['DELETE', { ...status(500, '1'), jsonBody: true }, false],
		['POST', status(500), false],
		['POST', status(502), false],
		['POST', status(504), false],
		['POST', network('ECONNREFUSED'), true],
		['POST', network('ECONNRESET'), false],
		['POST', network('ETIMEDOUT'), false],
		['POST', network(undefined), false],
		['POST', status(400), false],
		// DELETE is treated like POST.
		['DELETE', status(500), false],
		['DELETE', status(429), true],
		// GET: also network errors and any 5xx.
		['GET', status(500), true],
		['GET', status(502), true],
		['GET', status(503), true],
		['GET', status(504), true],
		['GET', status(429), true],
		['GET', network('ECONNRESET'), true],
		['GET', network('ETIMEDOUT'), true],
		['GET', network('UND_ERR_SOCKET'), true],
		['get', network('ECONNRESET'), true],
		['GET', network('ENOTFOUND'), false],
		['GET', network('ERR_CANCELED'), false],
		['GET', network(undefined), false],
		['GET', status(400), false],
		['GET', status(401), false],
		['GET', status(404), false],
	] as Array<[string, TryOutcome, boolean]>)('%s %j -> %p', (method, outcome, expected) => {
		expect(isRetryable(method, outcome)).toBe(expected);
	});
});

describe('transient network failures', () => {
	// Node's, undici's and axios's spellings of a connection that broke or never answered.
	const TRANSIENT = [
		'ECONNRESET',
		'ECONNABORTED',
		'ETIMEDOUT',
		'ESOCKETTIMEDOUT',
		'EPIPE',
		'EAI_AGAIN',
		'EHOSTUNREACH',
		'ENETUNREACH',
		'ENETDOWN',
		'UND_ERR_SOCKET',
		'UND_ERR_CONNECT_TIMEOUT',
		'UND_ERR_HEADERS_TIMEOUT',
		'UND_ERR_BODY_TIMEOUT',
	];

	it.each(TRANSIENT)('a GET that failed with %s is read again; a POST is not sent again', (code) => {
		expect(isRetryable('GET', network(code))).toBe(true);
		expect(isRetryable('POST', network(code))).toBe(false);
	});

	it.each(TRANSIENT)('%s is found behind a wrapper with another code', (code) => {
		const wrapper = { code: 'ERR_BAD_RESPONSE', cause: { code } };
		expect(networkErrorCode(wrapper)).toBe(code);
	});
});

describe('decideRetry', () => {
	it('waits Retry-After on 429 and 503, plus jitter up to a quarter of it and RETRY_AFTER_JITTER_MS', () => {
		const none = () => 0;
		const most = () => 0.999999;
		expect(decideRetry('POST', status(429, '1'), 0, settings, NOW, none)).toEqual({ retry: true, delayMs: 1000 });
		expect(decideRetry('POST', status(503, '0'), 0, settings, NOW, none)).toEqual({ retry: true, delayMs: 0 });
		expect(decideRetry('GET', status(503, 'Sat, 21 Nov 2026 12:00:00 GMT'), 1, settings, NOW, none)).toEqual({
			retry: true,
			delayMs: 0,
		});
		expect(decideRetry('POST', status(429, '2'), 0, { ...settings, maxDelayMs: 5000 }, NOW, most)).toEqual({
			retry: true,
			delayMs: 2000 + RETRY_AFTER_JITTER_MS - 1,
		});
		// Retry-After: 0 (a sporadic refusal) is sent again almost at once; 0.4 s gets at most 0.1 s of jitter.
		expect(decideRetry('POST', status(503, '0'), 0, settings, NOW, most)).toEqual({ retry: true, delayMs: MIN_RETRY_AFTER_JITTER_MS - 1 });
		expect(decideRetry('POST', status(503, '0.4'), 0, settings, NOW, most)).toEqual({ retry: true, delayMs: 399 + 100 });
		// Never past the cap, jitter included.
		expect(decideRetry('POST', status(429, '1'), 0, settings, NOW, most)).toEqual({ retry: true, delayMs: 1000 });
	});

	it('backs off with jitter when there is no Retry-After', () => {
		expect(decideRetry('POST', status(429), 2, settings, NOW, () => 0.5)).toEqual({ retry: true, delayMs: 200 });
		expect(decideRetry('GET', status(500, '7'), 0, settings, NOW, () => 0.5)).toEqual({ retry: true, delayMs: 50 });
		expect(decideRetry('GET', network('ECONNRESET'), 1, settings, NOW, () => 0.5)).toEqual({
			retry: true,
			delayMs: 100,
		});
	});

	it('stops after maxRetries', () => {
		expect(decideRetry('POST', status(429, '0'), 3, settings, NOW)).toEqual({ retry: false, reason: 'exhausted' });
		expect(decideRetry('POST', status(429, '0'), 0, { ...settings, maxRetries: 0 }, NOW)).toEqual({
			retry: false,
			reason: 'exhausted',
		});
	});

	it('does not wait past maxDelayMs: a longer Retry-After fails the item', () => {
		expect(decideRetry('POST', status(429, '5'), 0, settings, NOW)).toEqual({
			retry: false,
			reason: 'retry-after-too-long',
			retryAfterMs: 5000,
		});
	});

	it('says when a failure is not retryable at all', () => {
		expect(decideRetry('POST', status(500), 0, settings, NOW)).toEqual({ retry: false, reason: 'not-retryable' });
	});
});

describe('networkErrorCode', () => {
	it('finds the system code through wrappers', () => {
		const sys = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
		const aggregate = Object.assign(new AggregateError([sys], 'all failed'), { code: undefined });
		const axiosLike = Object.assign(new Error('x'), { code: 'ERR_BAD_THING', cause: aggregate });
		const wrapper = Object.assign(new Error('wrapped'), { cause: axiosLike });
		expect(networkErrorCode(wrapper)).toBe('ECONNREFUSED');
		expect(networkErrorCode(axiosLike)).toBe('ECONNREFUSED');
	});

	it('falls back to the first code-like value, and survives cycles', () => {
		const a: Record<string, unknown> = { code: 'ERR_CANCELED' };
		a.cause = a;
		expect(networkErrorCode(a)).toBe('ERR_CANCELED');
		expect(networkErrorCode(new Error('plain'))).toBeUndefined();
		expect(networkErrorCode(undefined)).toBeUndefined();
	});
});
