/** The token check (inbound/token.ts) as properties: nothing but the exact secret, as one string value, passes. */
import fc from 'fast-check';
import { test as property } from '@fast-check/jest';

import { checkToken, sameSecret } from '@package/nodes/ContentModeration/inbound/token';
import { tokenCase } from '@test/helpers/callbackArbitraries';

/** Secrets of any characters, and values near them: cut, extended, cased, padded, encoded, or anything. */
const secret = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' });
const near = (value: string) =>
	fc.oneof(
		fc.constantFrom(value, value.slice(0, -1), value.slice(1), `${value}x`, value.toUpperCase(), value.toLowerCase(), ` ${value}`, `${value}\n`, encodeURIComponent(value), value.normalize('NFD')),
		fc.string({ maxLength: 40, unit: 'binary' }),
	);

property.prop([secret.chain((value) => fc.tuple(fc.constant(value), near(value)))])(
	'sameSecret: equal exactly when the strings are equal',
	([expected, given]) => {
		expect(sameSecret(given, expected)).toBe(given === expected);
	},
);

/** A value a query parameter or header may hold: a string near the secret, a repeated one, a number, nothing. */
const given = (value: string) =>
	fc.oneof(near(value), fc.constant(undefined), fc.constant([value, value]), fc.constant([value]), fc.integer(), fc.constant(null));

property.prop([secret.chain((value) => fc.tuple(fc.constant(value), given(value), given(value)))])(
	'checkToken: passes only when the token parameter or the header is the exact secret',
	([expected, query, header]) => {
		const queryData = query === undefined ? {} : { token: query };
		const headers = header === undefined ? {} : { 'x-callback-token': header };
		expect(checkToken([expected], queryData as never, headers as never).ok).toBe(query === expected || header === expected);
	},
);

property.prop([fc.string({ minLength: 16, maxLength: 40 }).chain((value) => fc.tuple(fc.constant(value), tokenCase(value)))])(
	"the callbacks' token cases: valid exactly when the case says so",
	([expected, token]) => {
		expect(checkToken([expected], token.query, token.headers).ok).toBe(token.valid);
	},
);
