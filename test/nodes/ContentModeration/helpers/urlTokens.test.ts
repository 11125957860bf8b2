import { tokensInUrl } from '@package/nodes/ContentModeration/helpers/urlTokens';

test('finds every token, raw and decoded, so that both can be redacted', () => {
	expect(tokensInUrl('https://x/w?token=a%20b&y=1&TOKEN=c').sort()).toEqual(['a b', 'a%20b', 'c']);
	expect(tokensInUrl('https://x/w?token=')).toEqual([]);
	expect(tokensInUrl('https://x/w?token=%E0%A4%A')).toEqual(['%E0%A4%A']);
});

test('decodes a + in a token as a space, as a query string means it', () => {
	expect(tokensInUrl('https://x/w?token=a+b').sort()).toEqual(['a b', 'a+b']);
});
