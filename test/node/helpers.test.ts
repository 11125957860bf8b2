/**
 * Unit tests of the action node's helpers: input decoding/checks, error items, the polling rule.
 */
import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

import { isResultReady } from '../../nodes/ContentModeration/actions/image/moderate.operation';
import { asNodeError, errorItem } from '../../nodes/ContentModeration/shared/errors';
import {
	checkHttpUrl,
	checkId,
	checkNotEmpty,
	InputProblem,
	isProblem,
	normalizeBase64,
	parseMetaJson,
} from '../../nodes/ContentModeration/shared/inputs';
import { makePng } from '../../dev/mock/png';

const node: INode = {
	id: '1',
	name: 'Content Moderation',
	type: 'n8n-nodes-content-moderation.contentModeration',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function problem(value: unknown): InputProblem {
	if (!isProblem(value)) throw new Error(`expected a problem, got ${JSON.stringify(value)}`);
	return value;
}

describe('checkId', () => {
	it('accepts ids of 3+ characters, trimmed; numbers as text', () => {
		expect(checkId('abc', 'Image ID')).toBe('abc');
		expect(checkId('  3f1c-9a \n', 'Image ID')).toBe('3f1c-9a');
		expect(checkId(12345, 'Image ID')).toBe('12345');
	});

	it('refuses empty and short ids, naming the field', () => {
		expect(problem(checkId('', 'Text ID')).message).toBe('The Text ID is empty');
		expect(problem(checkId(undefined, 'Text ID')).message).toBe('The Text ID is empty');
		expect(problem(checkId('ab', 'Item ID')).message).toBe('The Item ID "ab" is too short');
		expect(problem(checkId(' ab ', 'Item ID')).description).toContain('at least 3 characters');
	});
});

describe('checkHttpUrl', () => {
	it('accepts http and https URLs', () => {
		expect(checkHttpUrl('https://img.test/a.jpg', 'Image URL')).toBe('https://img.test/a.jpg');
		expect(checkHttpUrl(' http://127.0.0.1:8080/x ', 'Image URL')).toBe('http://127.0.0.1:8080/x');
	});

	it.each([
		['', 'is empty'],
		['example.com/a.jpg', 'is not a valid URL'],
		['file:///etc/passwd', 'not file'],
		['data:image/png;base64,AAAA', 'not data'],
	])('refuses %j (%s)', (value, text) => {
		expect(problem(checkHttpUrl(value, 'Image URL')).message).toContain(text);
	});
});

describe('normalizeBase64', () => {
	const png = makePng('cat').toString('base64');

	it('keeps plain base64 and strips a data: prefix and whitespace', () => {
		expect(normalizeBase64(png, 'Image (Base64)')).toBe(png);
		expect(normalizeBase64(`data:image/png;base64,${png}`, 'Image (Base64)')).toBe(png);
		expect(normalizeBase64(`DATA:image/jpeg;base64,${png}`, 'Image (Base64)')).toBe(png);
		expect(normalizeBase64(`  ${png.slice(0, 10)}\n${png.slice(10)}\r\n`, 'Image (Base64)')).toBe(png);
	});

	it.each([
		['', 'is empty'],
		['data:image/png;base64,', 'is empty'],
		['abc', 'is not valid base64'],
		['ab*d', 'is not valid base64'],
		['YWJj=ZGVm', 'is not valid base64'],
		['https://img.test/a.jpg', 'is not valid base64'],
		// Valid alphabet and length but non-canonical trailing bits: does not round-trip.
		['YWJjZB==', 'is not valid base64'],
	])('refuses %j', (value, text) => {
		const result = problem(normalizeBase64(value, 'Image (Base64)'));
		expect(result.message).toBe(`The Image (Base64) ${text}`);
		expect(result.description).toContain('data:image/png;base64,');
	});
});

describe('parseMetaJson', () => {
	it('parses JSON text to its value; empty means not set; objects pass through', () => {
		expect(parseMetaJson('{"a":1,"b":[true,null]}', 'Metadata (JSON)')).toEqual({ a: 1, b: [true, null] });
		expect(parseMetaJson('"just text"', 'Metadata (JSON)')).toBe('just text');
		expect(parseMetaJson('42', 'Metadata (JSON)')).toBe(42);
		expect(parseMetaJson('', 'Metadata (JSON)')).toBeUndefined();
		expect(parseMetaJson(undefined, 'Metadata (JSON)')).toBeUndefined();
		expect(parseMetaJson({ a: 1 }, 'Metadata (JSON)')).toEqual({ a: 1 });
	});

	it('refuses invalid JSON with the parser message', () => {
		const result = problem(parseMetaJson('{a: 1}', 'Metadata (JSON)'));
		expect(result.message).toBe('The Metadata (JSON) is not valid JSON');
		expect(result.description).toMatch(/Parser said: .+/);
	});

	it('a meta object shaped like a problem is still a value', () => {
		const meta = { message: 'm', description: 'd' };
		expect(isProblem(parseMetaJson(JSON.stringify(meta), 'Metadata (JSON)'))).toBe(false);
	});
});

describe('checkNotEmpty', () => {
	it('keeps text as typed and refuses blank text with the given hint', () => {
		expect(checkNotEmpty(' hi ', 'Text', 'hint')).toBe(' hi ');
		expect(problem(checkNotEmpty(' \n', 'Text', 'Enter the text')).description).toBe('Enter the text');
		expect(problem(checkNotEmpty(null, 'Queue ID', 'x')).message).toBe('The Queue ID is empty');
	});
});

describe('isResultReady (deferredWait polling rule)', () => {
	it('only a body with a boolean isSafe is a result; 202 never is', () => {
		expect(isResultReady(200, { id: 'x', isSafe: false })).toBe(true);
		expect(isResultReady(200, { id: 'x', status: 'processing' })).toBe(false);
		expect(isResultReady(200, { isSafe: 'true' })).toBe(false);
		expect(isResultReady(202, { id: 'x', isSafe: true })).toBe(false);
		expect(isResultReady(200, null)).toBe(false);
		expect(isResultReady(200, '')).toBe(false);
	});
});

describe('error mapping', () => {
	it('errorItem keeps message, description and HTTP status, paired to the item, only n8n error keys', () => {
		const apiError = new NodeApiError(node, { message: 'x' }, {
			message: 'The Content Moderation Service answered 404: gone',
			description: 'Check the id',
			httpCode: '404',
		});
		expect(errorItem(apiError, 3)).toEqual({
			json: {
				error: 'The Content Moderation Service answered 404: gone',
				details: { description: 'Check the id', httpCode: '404' },
			},
			pairedItem: { item: 3 },
		});
	});

	it('errorItem of a plain error or a non-error value', () => {
		expect(errorItem(new Error('boom'), 0)).toEqual({ json: { error: 'boom' }, pairedItem: { item: 0 } });
		expect(errorItem(undefined, 1)).toEqual({ json: { error: 'Unknown error' }, pairedItem: { item: 1 } });
	});

	it('asNodeError keeps node errors and wraps anything else with the item index', () => {
		const ctx = { getNode: () => node } as never;
		const operational = new NodeOperationError(node, 'bad', { itemIndex: 2 });
		expect(asNodeError(ctx, operational, 2)).toBe(operational);
		const wrapped = asNodeError(ctx, new TypeError('oops'), 4);
		expect(wrapped).toBeInstanceOf(NodeOperationError);
		expect(wrapped.message).toBe('oops');
		expect(wrapped.context.itemIndex).toBe(4);
	});
});
