/** checkToken (inbound/token.ts): the Callback Secret a call carries in its query or header, exactly. */
import { checkToken } from '@package/nodes/ContentModeration/inbound/token';

const SECRET = 'cred-cb-secret-91d4';

describe('checkToken', () => {
	test('a shortened, prefix, extended, cased or padded token is refused, in the query and the header', () => {
		for (const token of [SECRET.slice(0, -1), SECRET.slice(0, 8), SECRET.slice(1), `${SECRET}0`, SECRET.toUpperCase(), ` ${SECRET}`, '']) {
			expect(checkToken([SECRET], { token }, {}).ok).toBe(false);
			expect(checkToken([SECRET], {}, { 'x-callback-token': token }).ok).toBe(false);
		}
		expect(checkToken([SECRET], { token: SECRET }, {}).ok).toBe(true);
		expect(checkToken([SECRET], {}, { 'x-callback-token': SECRET }).ok).toBe(true);
	});
});
