/** The field checks at their edges: the threshold's ends, the examples and fixes their problems name, data: prefixes. */
import {
	checkHttpUrl,
	checkThreshold,
	InputProblem,
	normalizeBase64,
	parseMetaJson,
} from '@package/nodes/ContentModeration/validation/checks';

const MAP_FIX = (example: string) =>
	`Nothing was sent. Map the value itself, not the object or list around it, for example ${example}; check the input item in the Input panel.`;

describe('checkThreshold at its ends', () => {
	it.each([0, 0.5, 99.5, 100, '100'])('%p is taken', (value) => {
		expect(checkThreshold(value, 'Threshold')).toBe(Number(value));
	});

	it.each([-1, -0.001, 100.001, 101])('%p is refused', (value) => {
		expect(checkThreshold(value, 'Threshold')).toEqual(
			new InputProblem(
				`The Threshold must be a number from 0 to 100, but it is a number (${value})`,
				expect.any(String),
			),
		);
	});

	it('quotes at most 40 characters of a text it refuses', () => {
		const problem = checkThreshold(`${'7'.repeat(40)}% of everything`, 'Threshold') as InputProblem;
		expect(problem.message).toBe(`The Threshold must be a number from 0 to 100, but it is "${'7'.repeat(40)}"`);
	});
});

describe('checkHttpUrl: its problems', () => {
	const ADDRESS = 'Enter a full address starting with http:// or https://, for example https://example.com/photo.jpg.';

	it('names the example of an expression for a value that is not a text', () => {
		expect(checkHttpUrl({ url: 'https://x.example/a.jpg' }, 'Image URL')).toEqual(
			new InputProblem(
				'The Image URL must be a text, but the expression gave an object with keys url',
				MAP_FIX('{{ $json.image.url }}'),
			),
		);
	});

	it.each([
		['', 'The Image URL is empty'],
		['not a url', 'The Image URL "not a url" is not a valid URL'],
		['ftp://x.example/a.jpg', 'The Image URL must be an http(s) URL, not ftp'],
		[' file:///etc/passwd ', 'The Image URL must be an http(s) URL, not file'],
	])('%p: %s, and how to write one', (value, message) => {
		expect(checkHttpUrl(value, 'Image URL')).toEqual(new InputProblem(message, ADDRESS));
	});
});

describe('normalizeBase64: prefixes and problems', () => {
	const FIX =
		'Enter the image as base64 text (for example iVBORw0KGgo...). A "data:image/png;base64," prefix is accepted. To send a file, set Input Type to Binary File instead.';

	it.each([
		['data:image/png;base64,QUJD', 'QUJD'],
		['  data:image/png;base64,QUJD\n', 'QUJD'],
		['\n DATA:image/png;base64,QUJD', 'QUJD'],
	])('%p -> %p', (value, expected) => {
		expect(normalizeBase64(value, 'Image Data')).toBe(expected);
	});

	it('takes a data: prefix only at the start', () => {
		expect(normalizeBase64('QUJDdata:image/png;base64,QUJD', 'Image Data')).toEqual(
			new InputProblem('The Image Data is not valid base64', FIX),
		);
	});

	it('names the example of an expression for a value that is not a text', () => {
		expect(normalizeBase64(['QUJD'], 'Image Data')).toEqual(
			new InputProblem(
				'The Image Data must be a text, but the expression gave an array of 1 item',
				MAP_FIX('{{ $json.image.data }}'),
			),
		);
	});
});

describe('parseMetaJson', () => {
	it('is undefined for no value (null included)', () => {
		expect(parseMetaJson(null, 'Metadata')).toBeUndefined();
		expect(parseMetaJson(undefined, 'Metadata')).toBeUndefined();
	});

	it('says how to write JSON by default, and what the parser said', () => {
		const problem = parseMetaJson('{orderId: 1}', 'Metadata') as InputProblem;
		expect(problem.message).toBe('The Metadata is not valid JSON');
		expect(problem.description).toMatch(
			/^Enter JSON such as \{"orderId": "A-17"\} \(double quotes around names and texts\)\. Parser said: \S/,
		);
	});
});
