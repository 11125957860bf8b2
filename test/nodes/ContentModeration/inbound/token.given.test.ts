/** What a call carries as a token (inbound/token.ts), what each refusal says, and the redacted query. */
import {
	checkGivenToken,
	checkToken,
	givenTokens,
	givenTokenStrings,
	redactQuery,
	withCallbackSecret,
} from '@package/nodes/ContentModeration/inbound/token';

const MISSING = 'Missing callback token: add ?token=<secret> to the URL or send an X-Callback-Token header';

test('the query parameter, then the header, as received; an empty or absent one is no token', () => {
	expect(givenTokens({ token: 'q', other: 'x' }, { 'x-callback-token': 'h', authorization: 'a' })).toEqual(['q', 'h']);
	expect(givenTokens({ token: ['a', 'b'] }, {})).toEqual([['a', 'b']]);
	expect(givenTokens({ token: '' }, { 'x-callback-token': '' })).toEqual([]);
	expect(givenTokens({}, { 'x-callback-token': 'h' })).toEqual(['h']);
	expect(givenTokenStrings({ token: ['a', 3, 'b'] }, { 'x-callback-token': 'h' })).toEqual(['a', 'b', 'h']);
	expect(givenTokenStrings({ token: 5 }, {})).toEqual([]);
});

test('no token: the refusal says how to send one; a wrong one: invalid', () => {
	expect(checkToken(['s'], {}, {})).toEqual({ ok: false, message: MISSING });
	expect(checkToken(['s'], { token: '' }, { 'x-callback-token': '' })).toEqual({
		ok: false,
		message: MISSING,
	});
	expect(checkGivenToken(() => true, [])).toEqual({
		ok: false,
		message: MISSING,
	});
	expect(checkToken(['s'], { token: 'x' }, {})).toEqual({
		ok: false,
		message: 'Invalid callback token',
	});
	expect(checkGivenToken(() => true, [['s']])).toEqual({
		ok: false,
		message: 'Invalid callback token',
	});
	expect(checkGivenToken((token) => token === 'b', ['a', 'b'])).toEqual({
		ok: true,
	});
});

test('every given value is checked, and any expected secret is accepted', () => {
	const seen: string[] = [];
	expect(checkGivenToken((token) => (seen.push(token), token === 'a'), ['a', 'b'])).toEqual({ ok: true });
	expect(seen).toEqual(['a', 'b']);
	expect(checkToken(['old', 'new'], { token: 'new' }, {})).toEqual({
		ok: true,
	});
	expect(checkToken(['old', 'new'], {}, { 'x-callback-token': 'old' })).toEqual({ ok: true });
	expect(checkToken([], { token: 'new' }, {})).toEqual({
		ok: false,
		message: 'Invalid callback token',
	});
});

test('redactQuery replaces the token only, in a copy', () => {
	const query = { token: 's', a: '1' };
	expect(redactQuery(query)).toEqual({ token: '[redacted]', a: '1' });
	expect(query.token).toBe('s');
	const plain = { a: '1' };
	const copy = redactQuery(plain);
	expect(copy).toStrictEqual({ a: '1' });
	expect(copy).not.toBe(plain);
});

test('withCallbackSecret after a trailing & or a fragment alone', () => {
	expect(withCallbackSecret('https://n8n.example/w?x=1&', 's')).toBe('https://n8n.example/w?x=1&token=s');
	expect(withCallbackSecret('#frag', 's')).toBe('?token=s#frag');
	expect(withCallbackSecret('https://n8n.example/w?a=1#x?y', 's')).toBe('https://n8n.example/w?a=1&token=s#x?y');
});
