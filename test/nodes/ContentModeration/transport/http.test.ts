/** One request as n8n's HTTP helper takes it, and what an answer means for the retries and for the limiter. */
import { LARGE_FIELD_CHARS } from '@package/nodes/ContentModeration/transport/jsonBody';
import {
	failureSignal,
	httpOptions,
	loadSignal,
	statusOutcome,
} from '@package/nodes/ContentModeration/transport/http';

const BASE = 'https://moderation.example.com';

describe('httpOptions', () => {
	it('a full response, status errors left to the client, a timeout, and the run\'s cancel signal', () => {
		const signal = new AbortController().signal;
		const options = httpOptions(BASE, { method: 'GET', path: '/image/x', qs: { a: 1 } }, signal);
		expect(options).toMatchObject({
			method: 'GET',
			url: `${BASE}/image/x`,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			sendCredentialsOnCrossOriginRedirect: false,
			qs: { a: 1 },
		});
		expect(options.timeout).toBeGreaterThan(0);
		expect(options.abortSignal).toBe(signal);
		expect(options.body).toBeUndefined();
	});

	it('a request that sends something does not follow a redirect (its body would go along); a GET does', () => {
		for (const method of ['POST', 'DELETE'] as const)
			expect(httpOptions(BASE, { method, path: '/text', body: { text: 'hi' } }).disableFollowRedirect).toBe(true);
		expect(httpOptions(BASE, { method: 'GET', path: '/text/x' }).disableFollowRedirect).toBeUndefined();
	});

	it('a small body as it is; one with a large field as JSON bytes', () => {
		const small = httpOptions(BASE, { method: 'POST', path: '/text', body: { text: 'hi' } });
		expect([small.body, small.headers]).toEqual([{ text: 'hi' }, undefined]);
		const image = 'A'.repeat(LARGE_FIELD_CHARS);
		const large = httpOptions(BASE, { method: 'POST', path: '/image', body: { image } });
		expect(Buffer.isBuffer(large.body)).toBe(true);
		expect(JSON.parse(String(large.body))).toEqual({ image });
		expect(large.headers).toEqual({ 'content-type': 'application/json' });
	});
});

describe('statusOutcome', () => {
	it('undefined for a 2xx; the status, Retry-After and whether the body is JSON otherwise', () => {
		expect(statusOutcome({ statusCode: 200 })).toBeUndefined();
		expect(statusOutcome({ statusCode: 204 })).toBeUndefined();
		expect(statusOutcome({ statusCode: 429, headers: { 'retry-after': '3' } })).toEqual({ kind: 'status', statusCode: 429, retryAfter: '3', jsonBody: false });
		expect(statusOutcome({ statusCode: 404 })).toEqual({ kind: 'status', statusCode: 404, retryAfter: undefined, jsonBody: false });
		const json = { 'content-type': 'application/json; charset=utf-8' };
		expect(statusOutcome({ statusCode: 503, headers: json, body: { error: { status: 503 } } })).toMatchObject({ jsonBody: true });
		expect(statusOutcome({ statusCode: 503, headers: { 'content-type': 'application/problem+json' }, body: { title: 'x' } })).toMatchObject({ jsonBody: true });
		// n8n parses JSON-looking text whatever its type: a proxy's text/plain or text/html page is not the service's refusal.
		expect(statusOutcome({ statusCode: 503, headers: { 'content-type': 'text/plain' }, body: { message: 'upstream request timeout' } })).toMatchObject({ jsonBody: false });
		expect(statusOutcome({ statusCode: 503, headers: { 'content-type': 'text/html' }, body: { error: 'no healthy upstream' } })).toMatchObject({ jsonBody: false });
		expect(statusOutcome({ statusCode: 503, body: { error: { status: 503 } } })).toMatchObject({ jsonBody: false });
		expect(statusOutcome({ statusCode: 503, body: 'upstream connect error or disconnect/reset before headers' })).toMatchObject({ jsonBody: false });
		expect(statusOutcome({ statusCode: 503, body: Buffer.from('{}') })).toMatchObject({ jsonBody: false });
	});

	it('2xx is 200 to 299 only: a 1xx as the final answer is a failure too', () => {
		expect(statusOutcome({ statusCode: 299 })).toBeUndefined();
		expect(statusOutcome({ statusCode: 101 })).toEqual({ kind: 'status', statusCode: 101, retryAfter: undefined, jsonBody: false });
	});

	it.each(['text/plain; note=application/json', 'text/application/json', 'application/json-seq', 'application/jsonx; charset=utf-8'])(
		'a type that only contains "application/json" (%s) is not JSON',
		(type) => {
			expect(statusOutcome({ statusCode: 503, headers: { 'content-type': type }, body: { error: { status: 503 } } })).toMatchObject({ jsonBody: false });
		},
	);

	it('a body declared JSON but not an object (text, or JSON null) is not a JSON refusal', () => {
		const json = { 'content-type': 'application/json' };
		expect(statusOutcome({ statusCode: 503, headers: json, body: 'Service Unavailable' })).toMatchObject({ jsonBody: false });
		expect(statusOutcome({ statusCode: 503, headers: json, body: null })).toMatchObject({ jsonBody: false });
	});
});

describe('loadSignal and failureSignal: what the limiter learns', () => {
	it('429/503 slow it down (with the Retry-After as ms); 502/504 are overload; other 5xx say nothing; the rest is a success', () => {
		expect(loadSignal({ statusCode: 429, headers: { 'retry-after': '2' } }, 10)).toEqual({ kind: 'throttled', retryAfterMs: 2000 });
		expect(loadSignal({ statusCode: 503 }, 10)).toEqual({ kind: 'throttled', retryAfterMs: undefined });
		expect(loadSignal({ statusCode: 502 }, 10)).toEqual({ kind: 'overloaded' });
		expect(loadSignal({ statusCode: 504 }, 10)).toEqual({ kind: 'overloaded' });
		expect(loadSignal({ statusCode: 500 }, 10)).toEqual({ kind: 'neutral' });
		expect(loadSignal({ statusCode: 404 }, 10)).toEqual({ kind: 'success', latencyMs: 10 });
		expect(loadSignal({ statusCode: 200 }, 35)).toEqual({ kind: 'success', latencyMs: 35 });
	});

	it.each(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNABORTED', 'ECONNRESET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])(
		'%s (a timeout or a reset, in Node, axios or undici spelling) is overload',
		(code) => {
			expect(failureSignal(Object.assign(new Error(code), { code }))).toEqual({ kind: 'overloaded' });
		},
	);

	it('timeouts and resets are overload; a refused connection says nothing', () => {
		expect(failureSignal(Object.assign(new Error('t'), { code: 'ETIMEDOUT' }))).toEqual({ kind: 'overloaded' });
		expect(failureSignal({ cause: { code: 'ECONNRESET' } })).toEqual({ kind: 'overloaded' });
		expect(failureSignal(Object.assign(new Error('r'), { code: 'ECONNREFUSED' }))).toEqual({ kind: 'neutral' });
		expect(failureSignal(new Error('no code'))).toEqual({ kind: 'neutral' });
	});
});
