import {
	DEFAULT_CONCURRENCY,
	MAX_CONCURRENCY,
	readRequestOptions,
} from '../../../../nodes/ContentModeration/descriptions/requestOptions';
import { DEFAULT_MAX_RETRIES, MAX_RETRIES_LIMIT } from '../../../../nodes/ContentModeration/transport/retry';

/** What the node reads when Request Options holds `raw` (n8n hands the collection to getNodeParameter). */
const read = (raw: unknown) => readRequestOptions({ getNodeParameter: (() => raw) as never });

describe('readRequestOptions', () => {
	it('uses the defaults when nothing is set', () => {
		expect(read({})).toEqual({ concurrency: DEFAULT_CONCURRENCY, maxRetries: DEFAULT_MAX_RETRIES });
		expect(read(null)).toEqual({ concurrency: DEFAULT_CONCURRENCY, maxRetries: DEFAULT_MAX_RETRIES });
	});

	it.each([
		[undefined, DEFAULT_CONCURRENCY],
		['', DEFAULT_CONCURRENCY],
		['abc', DEFAULT_CONCURRENCY],
		[NaN, DEFAULT_CONCURRENCY],
		[0, 1],
		[-4, 1],
		[1, 1],
		[3.9, 3],
		['12', 12],
		[1e9, MAX_CONCURRENCY],
	])('Concurrency %p -> %p', (input, expected) => {
		expect(read({ concurrency: input }).concurrency).toBe(expected);
	});

	it.each([
		[undefined, DEFAULT_MAX_RETRIES],
		[0, 0],
		[-1, 0],
		[2.7, 2],
		['5', 5],
		[1000, MAX_RETRIES_LIMIT],
		[1e9, MAX_RETRIES_LIMIT],
	])('Max Retries %p -> %p', (input, expected) => {
		expect(read({ maxRetries: input }).maxRetries).toBe(expected);
	});
});
