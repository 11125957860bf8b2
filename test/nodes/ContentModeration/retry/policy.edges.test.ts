/** The edges of the retry policy: Retry-After values, read methods, the 5xx range, and how far networkErrorCode looks. */
import {
	isReadMethod,
	isRetryable,
	networkErrorCode,
	parseRetryAfter,
} from '@package/nodes/ContentModeration/retry/policy';
import { NOW, status } from './outcomes';

describe('parseRetryAfter at its edges', () => {
	it.each([
		[0, 0],
		['0.125', 125],
		['1.25', 1250],
		['2.750', 2750],
	])('%p -> %p ms', (value, expected) => {
		expect(parseRetryAfter(value, NOW)).toBe(expected);
	});
});

describe('read methods', () => {
	it.each(['GET', 'get', 'HEAD', 'head'])('%s is a read: retried on a 500', (method) => {
		expect(isReadMethod(method)).toBe(true);
		expect(isRetryable(method, status(500))).toBe(true);
	});

	it.each(['POST', 'DELETE', 'PUT', ''])('%p is not a read', (method) => {
		expect(isReadMethod(method)).toBe(false);
	});
});

describe('the 5xx range a read retries', () => {
	it.each([
		[499, false],
		[500, true],
		[598, true],
		[599, true],
		[600, false],
		[999, false],
	])('GET answered %p: retryable %p', (statusCode, expected) => {
		expect(isRetryable('GET', status(statusCode))).toBe(expected);
	});
});

describe('networkErrorCode: where it looks, and how far', () => {
	it.each(['cause', 'error', 'reason', 'errorResponse'])('finds a code under %s', (key) => {
		expect(networkErrorCode({ message: 'wrapped', [key]: { code: 'ECONNRESET' } })).toBe('ECONNRESET');
		expect(networkErrorCode({ [key]: { [key]: { code: 'ERR_SOMETHING' } } })).toBe('ERR_SOMETHING');
	});

	it('skips null wherever it sits', () => {
		expect(networkErrorCode(null)).toBeUndefined();
		expect(networkErrorCode({ code: 'ERR_OUTER', cause: null, error: null })).toBe('ERR_OUTER');
		expect(networkErrorCode({ cause: null, errors: [null, { code: 'EPIPE' }] })).toBe('EPIPE');
	});

	it('finds a code in the errors of an AggregateError-like value', () => {
		expect(networkErrorCode({ errors: [{ code: 'lower' }, { code: 'ETIMEDOUT' }] })).toBe('ETIMEDOUT');
	});

	it.each(['ERR bad', 'bad ERR', 'E', 'econnreset', 'ECONN-RESET', ''])('%p is not a code', (code) => {
		expect(networkErrorCode({ code })).toBeUndefined();
		expect(networkErrorCode({ code, cause: { code: 'ERR_NEXT' } })).toBe('ERR_NEXT');
	});

	/** A chain of `depth` wrappers, each under `key` of the one before, the code on the last. */
	const chain = (depth: number, key: string, code = 'ECONNRESET'): Record<string, unknown> => {
		let current: Record<string, unknown> = { code };
		for (let level = 0; level < depth; level++) current = { message: `wrapper ${level}`, [key]: current };
		return current;
	};

	// 32 steps, one per value taken from the queue; each object queues its four keys. Through errorResponse (the
	// last key) the object at depth d is step 4 * d: depth 7 is step 28, depth 8 would be step 32, one too many.
	it('looks 32 steps deep, no further (a long or cyclic chain ends)', () => {
		expect(networkErrorCode(chain(7, 'errorResponse'))).toBe('ECONNRESET');
		expect(networkErrorCode(chain(8, 'errorResponse'))).toBeUndefined();
		expect(networkErrorCode(chain(100, 'cause'))).toBeUndefined();
		expect(networkErrorCode(chain(8, 'cause'))).toBe('ECONNRESET');
	});

	// Each object under two keys: without the set of objects seen, every level would be queued twice as often.
	it('takes an object met twice once, so that a shared chain is read as deep as a plain one', () => {
		const shared = (depth: number): Record<string, unknown> => {
			let current: Record<string, unknown> = { code: 'ECONNRESET' };
			for (let level = 0; level < depth; level++) current = { cause: current, error: current };
			return current;
		};
		expect(networkErrorCode(shared(7))).toBe('ECONNRESET');
		const cycle: Record<string, unknown> = { errors: [] };
		cycle.cause = cycle;
		cycle.error = cycle;
		(cycle.errors as unknown[]).push(cycle, cycle, { code: 'EPIPE' });
		expect(networkErrorCode(cycle)).toBe('EPIPE');
	});
});
