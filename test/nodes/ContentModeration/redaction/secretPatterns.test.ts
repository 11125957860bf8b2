/** What a secret looks like where it may leak: its forms and the patterns that mask them. */
import { redactValue } from '@package/nodes/ContentModeration/redaction/redact';
import { MASK, maskIn, secretForms, secretPatterns } from '@package/nodes/ContentModeration/redaction/secretPatterns';

const SECRET = 'sé"c\\r/e+t &=1';

function mask(text: string, secrets: string[]): string {
	const patterns = secretPatterns(secrets);
	if (patterns === undefined) throw new Error('no patterns');
	return maskIn(text, patterns);
}

describe('secretPatterns and maskIn', () => {
	test.each([
		['raw', SECRET],
		['JSON-escaped', JSON.stringify(SECRET).slice(1, -1)],
		['JSON-escaped twice', JSON.stringify(JSON.stringify(SECRET).slice(1, -1)).slice(1, -1)],
		['JSON, ASCII-only with \\/ (PHP, Python)', 's\\u00e9\\"c\\\\r\\/e+t &=1'],
		['URL-encoded', encodeURIComponent(SECRET)],
		['URL-encoded, lower-case hex', encodeURIComponent(SECRET).toLowerCase()],
		['form-encoded', new URLSearchParams({ a: SECRET }).toString().slice(2)],
		['URI-encoded (encodeURI)', encodeURI(SECRET)],
		['URL-encoded twice', encodeURIComponent(encodeURIComponent(SECRET))],
		['NFD', SECRET.normalize('NFD')],
		['JSON, ASCII-only, upper-case hex', 's\\u00E9\\"c\\\\r\\/e+t &=1'],
		['HTML-escaped', 'sé&quot;c\\r/e+t &amp;=1'],
		['base64', Buffer.from(SECRET).toString('base64')],
		['base64url', Buffer.from(SECRET).toString('base64url')],
	])('%s', (_name, form) => {
		expect(mask(`before ${form} after`, [SECRET])).toBe(`before ${MASK} after`);
	});

	// The characters percent-encoders and JSON writers disagree on: !'()*~, a space, "/" beside non-ASCII.
	const OTHER = "sé/(c)!*~ 'x";
	const percent = (kept: string, space: string) =>
		encodeURIComponent(OTHER)
			.replace(/[!'()*~]/g, (c) => (kept.includes(c) ? c : `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
			.replace(/%20/g, space);
	test.each([
		['form-encoded (URLSearchParams)', new URLSearchParams({ a: OTHER }).toString().slice(2)],
		["RFC 3986 (Python's quote, PHP's rawurlencode)", percent('~', '%20')],
		["Python's quote_plus", percent('~', '+')],
		["PHP's urlencode", percent('', '+')],
		["Java's URLEncoder", percent('*', '+')],
		["JSON, ASCII-only without \\/ (Python's json.dumps)", 's\\u00e9/(c)!*~ \'x'],
		["JSON with \\/ and Unicode as is (PHP's JSON_UNESCAPED_UNICODE)", "sé\\/(c)!*~ 'x"],
	])('%s', (_name, form) => {
		expect(mask(`before ${form} after`, [OTHER])).toBe(`before ${MASK} after`);
	});

	test('base64url, for a secret whose base64 has + and / (base64url: - and _)', () => {
		const secret = 'cb/sé?>~secret-9';
		const url = Buffer.from(secret).toString('base64url');
		expect(url).not.toBe(Buffer.from(secret).toString('base64').replace(/=+$/, ''));
		expect(mask(`before ${url} after`, [secret])).toBe(`before ${MASK} after`);
	});

	test('a secret under MIN_MASKED_LENGTH: masked as a whole value or a URL token value, nowhere else', () => {
		const text = '/cb?token=k3y-6c&x=1, ?TOKEN=k3y-6c#f, "?token=k3y-6c", and token=k3y-6cz, k3y-6c in a text';
		expect(mask(text, ['k3y-6c'])).toBe('/cb?token=***&x=1, ?TOKEN=***#f, "?token=***", and token=k3y-6cz, k3y-6c in a text');
		expect(mask('k3y-6c', ['k3y-6c'])).toBe(MASK);
		expect(redactValue({ uri: '/cb?token=k3y%2F6c' }, ['k3y/6c'])).toEqual({ uri: '/cb?token=***' });
	});

	test('no pattern without a non-empty string secret', () => {
		expect(secretPatterns(['', undefined, 42])).toBeUndefined();
	});
});

describe('secretForms', () => {
	test('each form is listed once', () => {
		expect(secretForms('plain123')).toEqual(['plain123', 'cGxhaW4xMjM=', 'cGxhaW4xMjM']);
		expect(new Set(secretForms(SECRET)).size).toBe(secretForms(SECRET).length);
	});

});

describe('a secret holding a lone surrogate', () => {
	// Typed or pasted into a credential, such a secret cannot be URL-encoded: encodeURIComponent throws, and the
	// encoders that accept it (URL, Buffer) write U+FFFD in its place.
	const LONE = 'abcd\uD800efgh';
	const WRITTEN = 'abcd\uFFFDefgh';

	test.each([
		['raw', LONE],
		['JSON-escaped', JSON.stringify(LONE).slice(1, -1)],
		['URL-encoded, as URL writes it', new URL(`https://x.example/?t=${LONE}`).search.slice(3)],
		['base64', Buffer.from(LONE).toString('base64')],
	])('%s is masked, and redaction does not throw', (_name, form) => {
		expect(redactValue({ a: `before ${form} after`, b: 'plain' }, [LONE])).toEqual({
			a: `before ${MASK} after`,
			b: 'plain',
		});
	});

	test('its forms are those of the text encoders write', () => {
		expect(secretForms(LONE)).toEqual(expect.arrayContaining([LONE, encodeURIComponent(WRITTEN)]));
	});
});

describe('an empty text beside long secrets only', () => {
	it('stays empty: no whole-value pattern exists without a short secret', () => {
		const patterns = secretPatterns(['a-long-secret-1234']);
		expect(patterns?.whole).toBeUndefined();
		expect(maskIn('', patterns!)).toBe('');
		expect(redactValue({ empty: '', token: 'a-long-secret-1234' }, ['a-long-secret-1234'])).toEqual({ empty: '', token: MASK });
	});
});
