/** The pure field checks: what each accepts, and the problem (message + fix) for what it refuses. */
import {
	checkHttpUrl,
	checkId,
	checkNotEmpty,
	InputProblem,
	isProblem,
	normalizeBase64,
	parseMetaJson,
} from '@package/nodes/ContentModeration/validation/checks';
import { makePng } from '@dev/mock/png';

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

	it('refuses "." and "..", which would read another address, naming the field', () => {
		for (const id of ['.', '..', ' .. ']) {
			const refused = problem(checkId(id, 'Image ID'));
			expect(refused.message).toMatch(/^The Image ID is "\." or "\.\.", which would read another address/);
			expect(refused.description).toContain('Image ID');
		}
		expect(checkId('...', 'Image ID')).toBe('...');
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
