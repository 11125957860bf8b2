import {
	DEFAULT_FIXED_CONCURRENCY,
	DEFAULT_MAX_CONCURRENCY,
	DEFAULT_MAX_IMAGE_MB,
	MAX_CONCURRENCY,
	MAX_IMAGE_MB_LIMIT,
	readRequestOptions,
	REQUEST_SETTINGS,
} from '@package/nodes/ContentModeration/descriptions/requestOptions';
import { DEFAULT_MAX_RETRIES, MAX_RETRIES_LIMIT } from '@package/nodes/ContentModeration/retry/policy';

/** What the node reads when Options holds `raw` (n8n hands the collection to getNodeParameter). */
const read = (raw: unknown) => readRequestOptions({ getNodeParameter: (() => raw) as never });
const MB = 1024 * 1024;

describe('readRequestOptions', () => {
	it('uses the defaults when nothing is set: adaptive up to Max Concurrency', () => {
		const defaults = {
			concurrency: { adaptive: true, limit: DEFAULT_MAX_CONCURRENCY },
			maxRetries: DEFAULT_MAX_RETRIES,
			maxImageBytes: DEFAULT_MAX_IMAGE_MB * MB,
		};
		expect(read({})).toEqual(defaults);
		expect(read(null)).toEqual(defaults);
	});

	it('Fixed Concurrency added: exactly that number', () => {
		// n8n stores a collection's options only when the user added them: {concurrency: 5} is a choice.
		expect(read({ concurrency: 5 }).concurrency).toEqual({ adaptive: false, limit: 5 });
		expect(read({ concurrency: 5, maxConcurrency: 50 }).concurrency).toEqual({ adaptive: false, limit: 5 });
		// The option's default: what the editor puts in when it is added.
		const option = REQUEST_SETTINGS.find((o) => o.name === 'concurrency');
		expect(option).toMatchObject({ default: DEFAULT_FIXED_CONCURRENCY });
	});

	it.each([
		['abc', DEFAULT_FIXED_CONCURRENCY],
		[NaN, DEFAULT_FIXED_CONCURRENCY],
		[0, 1],
		[-4, 1],
		[1, 1],
		[3.9, 3],
		['12', 12],
		[1e9, MAX_CONCURRENCY],
	])('Fixed Concurrency %p -> %p', (input, expected) => {
		expect(read({ concurrency: input }).concurrency).toEqual({ adaptive: false, limit: expected });
	});

	it.each([undefined, null, ''])('Fixed Concurrency %p is not set: adaptive', (input) => {
		expect(read({ concurrency: input }).concurrency.adaptive).toBe(true);
	});

	it.each([
		[undefined, DEFAULT_MAX_CONCURRENCY],
		[0, 1],
		['30', 30],
		[1e9, MAX_CONCURRENCY],
	])('Max Concurrency %p -> adaptive up to %p', (input, expected) => {
		expect(read({ maxConcurrency: input }).concurrency).toEqual({ adaptive: true, limit: expected });
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

	it.each([
		[undefined, DEFAULT_MAX_IMAGE_MB],
		[1, 1],
		['50', 50],
		[0, 1],
	])('Max Image Size %p MB -> %p MB', (input, expected) => {
		expect(read({ maxImageSizeMb: input }).maxImageBytes).toBe(expected * MB);
	});
});

describe('REQUEST_SETTINGS: what the editor lets a user type is what the node reads', () => {
	const pick: Record<string, (options: ReturnType<typeof read>) => number> = {
		concurrency: (o) => o.concurrency.limit,
		maxConcurrency: (o) => o.concurrency.limit,
		maxRetries: (o) => o.maxRetries,
		maxImageSizeMb: (o) => o.maxImageBytes / MB,
	};

	it.each([
		['concurrency', 1, MAX_CONCURRENCY],
		['maxConcurrency', 1, MAX_CONCURRENCY],
		['maxRetries', 0, MAX_RETRIES_LIMIT],
		['maxImageSizeMb', 1, MAX_IMAGE_MB_LIMIT],
	])('%s: whole numbers from %p to %p in the editor, read under that name and in that range', (name, min, max) => {
		const setting = REQUEST_SETTINGS.find((option) => option.name === name);
		// The editor refuses fractions and out-of-range values as the node would clamp them.
		expect(setting?.typeOptions).toEqual({ minValue: min, maxValue: max, numberPrecision: 0 });
		const readBack = (value: number) => pick[name](read({ [setting!.name]: value }));
		expect([readBack(min), readBack(max), readBack(max + 1)]).toEqual([min, max, max]);
	});
});
