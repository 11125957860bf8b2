/** The forms of a secret that other programs write (HTML, base64 with padding), the order of the patterns, and what is left alone. */
import { redactValue } from '@package/nodes/ContentModeration/redaction/redact';
import { MASK, maskIn, secretPatterns } from '@package/nodes/ContentModeration/redaction/secretPatterns';

function mask(text: string, secrets: string[]): string {
	const patterns = secretPatterns(secrets);
	if (patterns === undefined) throw new Error('no patterns');
	return maskIn(text, patterns);
}

const LONG = 'cb-secret/5d1e88a0';
const SHORT = 'k3y-6c';

describe('forms other programs write', () => {
	test('HTML-escaped: each of & < > " \' as its entity', () => {
		const secret = `a<b>'c"d&e1`;
		expect(mask('before a&lt;b&gt;&#39;c&quot;d&amp;e1 after', [secret])).toBe(`before ${MASK} after`);
	});

	// The characters encoders disagree on, in every way each is written: kept, percent-encoded in either case, an
	// HTML entity named as escapers write it or numbered (decimal or hex, either case, zero-padded).
	const WAYS: Array<[string, string[]]> = [
		['!', ['%21']],
		["'", ['%27', '&apos;', '&#39;', '&#039;', '&#x27;', '&#X27;']],
		['(', ['%28', '&#40;']],
		[')', ['%29', '&#x29;']],
		['*', ['%2A', '%2a', '&#42;', '&#x2a;', '&#x2A;', '&#X002A;']],
		['~', ['%7E', '%7e', '&#126;', '&#x7E;', '&#x7e;']],
		['"', ['%22', '&quot;', '&#34;', '&#x22;']],
		['&', ['%26', '&amp;', '&amp;amp;', '&#38;', '&#x26;', '\\u0026']],
		['<', ['%3C', '%3c', '&lt;', '&amp;lt;', '&#60;', '&amp;#60;', '&#x3C;', '&#x3c;', '\\u003c', '\\u003C']],
		['>', ['%3E', '&gt;', '&amp;gt;', '&#62;', '&#x3E;', '\\u003e']],
	];

	test.each(WAYS)('%s in a long secret, in each of its ways (%j), raw or URL-encoded around it', (c, ways) => {
		const secret = `abcd${c}efgh1`;
		for (const way of [c, ...ways]) expect(mask(`before abcd${way}efgh1 after`, [secret])).toBe(`before ${MASK} after`);
		// In a URL inside another's query, the way encodeURIComponent writes it.
		expect(mask(`x=${encodeURIComponent(encodeURIComponent(secret))}`, [secret])).toBe(`x=${MASK}`);
	});

	test.each(WAYS)('%s in a short secret, as a whole value in each of its ways', (c, ways) => {
		const secret = `k${c}y6`;
		for (const way of [c, ...ways]) expect(mask(`k${way}y6`, [secret])).toBe(MASK);
	});

	test('a secret ending in & written as &amp; is masked whole, entity included', () => {
		expect(mask('a abcdefgh1&amp; b', ['abcdefgh1&'])).toBe(`a ${MASK} b`);
	});

	test('another character in a way of an unsure one is not the secret', () => {
		for (const text of ['abcd%2Befgh1', 'abcd&#43;efgh1', 'abcd&#x2B;efgh1', 'abcd&plus;efgh1', 'abcdefgh1'])
			expect(mask(text, ['abcd*efgh1'])).toBe(text);
	});

	// Its base64 holds "/" and "+" and ends in "==": the unpadded and URL-safe forms drop both "=".
	const PADDED = 'ab?>>~secret1';

	test.each([
		['base64', 'YWI/Pj5+c2VjcmV0MQ=='],
		['base64 without padding', 'YWI/Pj5+c2VjcmV0MQ'],
		['base64url ("-" and "_", no padding)', 'YWI_Pj5-c2VjcmV0MQ'],
	])('%s of a secret whose base64 ends in two "="', (_name, form) => {
		expect(Buffer.from(PADDED).toString('base64')).toBe('YWI/Pj5+c2VjcmV0MQ==');
		expect(mask(`before ${form} after`, [PADDED])).toBe(`before ${MASK} after`);
	});
});

describe('a secret holding another', () => {
	// Longest first: the longer secret is replaced whole, whichever order the secrets come in.
	test.each([[['password1', 'password1234']], [['password1234', 'password1']]])(
		'%j: the longer one is masked whole, no tail left',
		(secrets) => {
			expect(mask('a password1234 b password1 c', secrets)).toBe(`a ${MASK} b ${MASK} c`);
			expect(mask(`x${encodeURIComponent('password1234')}y`, secrets)).toBe(`x${MASK}y`);
		},
	);
});

test('a long and a short secret together: each masked where it is', () => {
	const text = `a ${LONG} b /cb?token=${SHORT}&x=1 c ${SHORT}`;
	expect(mask(text, [LONG, SHORT])).toBe(`a ${MASK} b /cb?token=${MASK}&x=1 c ${SHORT}`);
	expect(mask(text, [SHORT, LONG])).toBe(`a ${MASK} b /cb?token=${MASK}&x=1 c ${SHORT}`);
});

describe('what holds no form of a secret is left as it is', () => {
	// A URL with an empty token, and a sentence (Stryker's marker text: no pattern but a secret's may match it).
	const TEXTS = ['/cb?token=&x=1', 'https://x.example/cb?TOKEN=', 'Stryker was here', 'plain text, token=none'];

	test.each([
		['a long secret only', [LONG]],
		['a short secret only', [SHORT]],
		['both', [LONG, SHORT]],
	])('masking, with %s', (_name, secrets) => {
		for (const text of TEXTS) expect(mask(text, secrets)).toBe(text);
	});

	test.each([
		['a long secret only', [LONG]],
		['a short secret only', [SHORT]],
		['both', [LONG, SHORT]],
	])('redactValue returns the same value (not a copy), with %s', (_name, secrets) => {
		const value = { texts: [...TEXTS], nested: { url: TEXTS[0], n: 1 } };
		expect(redactValue(value, secrets)).toBe(value);
	});

	// A short secret is found as a whole value only as an encoder writes it: PHP's urlencode writes * and ~ as %2A, %7E.
	test.each([
		['k3y*6c', 'k3y%2A6c'],
		['k3y~6c', 'k3y%7E6c'],
	])('a short secret %p as a whole value percent-encoded by PHP (%p) is masked', (secret, form) => {
		expect(redactValue({ a: form, b: 'k3y' }, [secret])).toEqual({ a: MASK, b: 'k3y' });
	});

	test('while a short secret as a whole value or a token value is still masked', () => {
		const value = {
			a: SHORT,
			url: `/cb?token=${SHORT}&x=1`,
			text: `about ${SHORT}`,
		};
		expect(redactValue(value, [SHORT])).toEqual({
			a: MASK,
			url: '/cb?token=***&x=1',
			text: `about ${SHORT}`,
		});
	});
});
