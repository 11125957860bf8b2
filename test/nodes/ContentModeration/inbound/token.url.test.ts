import { checkToken, redactHeaders, withCallbackSecret } from '@package/nodes/ContentModeration/inbound/token';

describe('withCallbackSecret', () => {
	it('adds the secret as ?token=, encoded, keeping the rest of the URL byte for byte', () => {
		expect(withCallbackSecret('https://n8n.example/webhook/a', 's3cr&t')).toBe('https://n8n.example/webhook/a?token=s3cr%26t');
		expect(withCallbackSecret('https://n8n.example/w?x=1', 's')).toBe('https://n8n.example/w?x=1&token=s');
		expect(withCallbackSecret('https://n8n.example/w?', 's')).toBe('https://n8n.example/w?token=s');
		expect(withCallbackSecret('https://n8n.example/w#frag', 's')).toBe('https://n8n.example/w?token=s#frag');
	});

	it('leaves the URL alone without a secret', () => {
		expect(withCallbackSecret('https://n8n.example/w', '')).toBe('https://n8n.example/w');
	});
});

describe('a token that is not one string', () => {
	const SECRET = 'cb-secret/array-51f0';
	it('is refused: ?token[]=<secret> (parsed as a one-element array), a number, an object', () => {
		for (const token of [[SECRET], [SECRET, SECRET], { 0: SECRET }, 42]) {
			expect(checkToken([SECRET], { token } as never, {}).ok).toBe(false);
			expect(checkToken([SECRET], {}, { 'x-callback-token': token } as never).ok).toBe(false);
		}
	});
});

describe('redactHeaders', () => {
	it('replaces credential headers whatever the case of their names (headers handed over unnormalized)', () => {
		const headers = { Authorization: 'Bearer a', 'X-Callback-Token': 'b', COOKIE: 'c', 'Proxy-Authorization': 'd', Accept: 'e' };
		expect(redactHeaders(headers)).toEqual({
			Authorization: '[redacted]',
			'X-Callback-Token': '[redacted]',
			COOKIE: '[redacted]',
			'Proxy-Authorization': '[redacted]',
			Accept: 'e',
		});
	});
});
