/** The pure field checks: what each accepts, and the problem (message + fix) for what it refuses. */
import {
	checkHttpUrl,
	checkId,
	checkNoPastedToken,
	checkNotEmpty,
	checkThreshold,
	describeValue,
	InputProblem,
	isProblem,
	normalizeBase64,
	optionalText,
	parseMetaJson,
	textOf,
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
		expect(problem(checkNotEmpty(undefined, 'Queue ID', 'x')).message).toBe('The Queue ID is empty');
		expect(problem(checkNotEmpty(null, 'Text', 'x')).message).toBe('The Text must be a text, but the expression gave null');
	});
});

describe('describeValue', () => {
	it('names the kind and size of a value, never its content', () => {
		expect(describeValue({ body: 'secret words', user: 1 })).toBe('an object with keys body, user');
		expect(describeValue({})).toBe('an empty object');
		expect(describeValue([1, 2, 3])).toBe('an array of 3 items');
		expect(describeValue(['x'])).toBe('an array of 1 item');
		expect(describeValue(false)).toBe('a boolean');
		expect(describeValue(7)).toBe('a number (7)');
		expect(describeValue(null)).toBe('null');
		expect(describeValue(Object.fromEntries('abcdefgh'.split('').map((k) => [k, 1])))).toBe('an object with keys a, b, c, d, e, f, …');
	});
});

describe('textOf', () => {
	it('takes a string as it is, undefined as empty, whole numbers only where asked', () => {
		expect(textOf(' a ', 'Text', 'x')).toBe(' a ');
		expect(textOf(undefined, 'Text', 'x')).toBe('');
		expect(textOf(42, 'Actor ID', 'x', true)).toBe('42');
		expect(problem(textOf(42, 'Text', '{{ $json.body.text }}')).message).toBe('The Text must be a text, but the expression gave a number (42)');
		expect(problem(textOf(2 ** 53, 'Actor ID', 'x', true)).message).toContain('must be a text or a whole number');
		expect(problem(textOf(false, 'Actor ID', 'x', true)).message).toBe('The Actor ID must be a text or a whole number, but the expression gave a boolean');
		expect(problem(textOf({ a: 1 }, 'Text', '{{ $json.body.text }}')).description).toContain('{{ $json.body.text }}');
	});
});

describe('checkThreshold', () => {
	it('reads numbers and numeric texts from 0 to 100', () => {
		expect(checkThreshold(70, 'Risk Score Threshold')).toBe(70);
		expect(checkThreshold(' 70 ', 'Risk Score Threshold')).toBe(70);
		expect(checkThreshold('0', 'Risk Score Threshold')).toBe(0);
	});

	it.each([['70%', '"70%"'], [NaN, 'a number (NaN)'], [{ v: 70 }, 'an object with keys v'], ['', '""'], [null, 'null'], [150, 'a number (150)'], [true, 'a boolean']])(
		'refuses %p naming the threshold',
		(value, words) => {
			const refused = problem(checkThreshold(value, 'Risk Score Threshold'));
			expect(refused.message).toBe(`The Risk Score Threshold must be a number from 0 to 100, but it is ${words}`);
			expect(refused.description).toContain('0 turns the rule off');
		},
	);
});

describe('what a refusal tells the user to do', () => {
	it('an empty id: enter it or map it; an id that is not text: map the value itself', () => {
		expect(problem(checkId(' ', 'Text ID')).description).toBe(
			'Enter the Text ID, or map it from a previous node with an expression (for example {{ $json.id }}).',
		);
		expect(problem(checkId({ id: 'abc' }, 'Image ID')).description).toContain('for example {{ $json.id }}');
		expect(problem(checkNotEmpty(['a'], 'Text', 'x')).description).toContain('for example {{ $json.body.text }}');
	});

	it('describes undefined and an object by its first keys, each cut at 40 characters, six at most', () => {
		expect(describeValue(undefined)).toBe('undefined');
		const forty = 'k'.repeat(40);
		expect(describeValue({ [forty]: 1 })).toBe(`an object with keys ${forty}`);
		expect(describeValue({ [`${forty}x`]: 1 })).toBe(`an object with keys ${forty}…`);
		expect(describeValue(Object.fromEntries('abcdef'.split('').map((k) => [k, 1])))).toBe('an object with keys a, b, c, d, e, f');
	});
});

describe('optionalText', () => {
	it('is trimmed, undefined when empty or null; a number only where whole numbers are asked for', () => {
		expect(optionalText(' user-7 \n', 'Actor ID', '{{ $json.user.id }}')).toBe('user-7');
		expect(optionalText('  ', 'Actor ID', '{{ $json.user.id }}')).toBeUndefined();
		expect(optionalText(null, 'Actor ID', '{{ $json.user.id }}')).toBeUndefined();
		expect(optionalText(42, 'Actor ID', '{{ $json.user.id }}', true)).toBe('42');
		expect(problem(optionalText(42, 'Callback URL', '{{ $json.url }}')).message).toBe(
			'The Callback URL must be a text, but the expression gave a number (42)',
		);
	});
});

describe('checkNoPastedToken', () => {
	it('keeps a URL without a token, refuses one that carries token=, naming the field and the fix', () => {
		expect(checkNoPastedToken('https://n8n.example.com/webhook/abc', 'Callback URL')).toBe('https://n8n.example.com/webhook/abc');
		const refused = problem(checkNoPastedToken('https://n8n.example.com/webhook/abc?token=s3cr3t-value-123', 'Callback URL'));
		expect(refused.message).toBe('The Callback URL carries a token (token=…)');
		expect(refused.description).toMatch(/^Remove the token from the Callback URL and set a Callback Secret/);
	});
});
