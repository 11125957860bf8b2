import { parseBaseUrl, pathSegment } from '@package/nodes/ContentModeration/transport/baseUrl';

describe('parseBaseUrl', () => {
	it('trims spaces and trailing slashes', () => {
		expect(parseBaseUrl(' https://api.example.com/v1// ')).toEqual({ url: 'https://api.example.com/v1' });
		expect(parseBaseUrl('HTTP://127.0.0.1:3000')).toEqual({ url: 'HTTP://127.0.0.1:3000' });
	});

	it('names the credential field in each refusal', () => {
		expect(parseBaseUrl(undefined)).toEqual({ error: 'The Base URL of the Content Moderation API credential is empty' });
		expect(parseBaseUrl('  ')).toEqual({ error: 'The Base URL of the Content Moderation API credential is empty' });
		expect(parseBaseUrl('ftp://x')).toEqual({
			error: 'The Base URL "ftp://x" of the Content Moderation API credential must start with http:// or https://',
		});
		// The scheme must come first: another one with "http://" later in the value is still refused.
		expect(parseBaseUrl('ftp://x/http://y')).toEqual({
			error: 'The Base URL "ftp://x/http://y" of the Content Moderation API credential must start with http:// or https://',
		});
		expect(parseBaseUrl('http://exa mple.com')).toEqual({
			error: 'The Base URL "http://exa mple.com" of the Content Moderation API credential is not a valid URL',
		});
	});
});

describe('parseBaseUrl and a user name or password in the URL', () => {
	it.each(['http://moderator:pw-5150@127.0.0.1:4010', 'https://moderator@api.example.com/', 'https://:pw-5150@api.example.com'])('refuses %s without repeating it', (value) => {
		const parsed = parseBaseUrl(value);
		expect(parsed).toEqual({
			error: 'The Base URL of the Content Moderation API credential holds a user name or password (user:password@): remove it. The node signs every request with the Secret Key, which a password in the URL would replace.',
		});
	});

	it.each(['moderator:pw-5150@api.example.com', 'http://moderator:pw 5150@exa mple.com'])('never repeats a value holding an @ (%s)', (value) => {
		const parsed = parseBaseUrl(value) as { error: string };
		expect(parsed.error).toMatch(/^The Base URL of the Content Moderation API credential (must start|is not a valid URL)/);
		expect(parsed.error).not.toContain('pw');
	});

	it('keeps an @ in the path (not a user name)', () => {
		expect(parseBaseUrl('https://api.example.com/@team')).toEqual({ url: 'https://api.example.com/@team' });
	});
});

describe('pathSegment', () => {
	it('encodes what would change the path', () => {
		expect(pathSegment('a/b?c#d e')).toBe('a%2Fb%3Fc%23d%20e');
		expect(pathSegment('%2e%2e')).toBe('%252e%252e');
	});

	it('refuses what would leave its place in the path: ".", ".." and nothing', () => {
		for (const value of ['.', '..', '']) expect(() => pathSegment(value)).toThrow(/^A path parameter is/);
		expect(pathSegment('...')).toBe('...');
	});
});
