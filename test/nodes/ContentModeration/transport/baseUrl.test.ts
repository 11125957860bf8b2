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
		expect(parseBaseUrl('http://exa mple.com')).toEqual({
			error: 'The Base URL "http://exa mple.com" of the Content Moderation API credential is not a valid URL',
		});
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
