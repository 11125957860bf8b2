/** The secret rule (inbound/secretRule.ts): how a call is treated, and what the refusal tells the user. */
import {
	acceptWithoutSecretOption,
	isStrongSecret,
	MIN_CALLBACK_SECRET_LENGTH,
	SECRET_REQUIRED_DESCRIPTION,
	secretRequiredMessage,
	secretStanding,
	TEST_URL_NOTE,
} from '@package/nodes/ContentModeration/inbound/secretRule';

test('a secret of 16 characters is strong, 15 is not', () => {
	expect(MIN_CALLBACK_SECRET_LENGTH).toBe(16);
	expect(['', 'x'.repeat(15), 'x'.repeat(16)].map(isStrongSecret)).toEqual([false, false, true]);
});

test.each([
	// strong, manual, accept -> standing
	[true, false, false, 'secured'],
	[true, true, true, 'secured'],
	[false, true, false, 'testUrl'],
	[undefined, true, false, 'testUrl'],
	[false, false, false, 'refused'],
	[false, false, true, 'readBack'],
	[undefined, false, true, 'refused'],
	[undefined, false, false, 'refused'],
] as const)('strong %s, manual %s, accept %s: %s', (strong, manual, accept, standing) => {
	expect(secretStanding(strong, manual, accept)).toBe(standing);
});

test('the refusal names the credential field and how to fill it; the option states its risk', () => {
	expect(secretRequiredMessage()).toMatch(/Content Moderation API credential's "Callback Secret" field to 16 or more random characters/);
	expect(secretRequiredMessage()).toMatch(/Accept Callbacks Without a Secret/);
	expect(secretRequiredMessage(false)).toMatch(/^Callbacks are accepted only with a Callback Secret: select a Content Moderation API credential/);
	expect(acceptWithoutSecretOption).toMatchObject({ name: 'acceptWithoutSecret', type: 'boolean', default: false });
	expect(acceptWithoutSecretOption.description).toMatch(/^Whether .*Risky: anyone who learns the URL/);
});

test("the refusal's description says what a missing secret risks and where the secret goes", () => {
	expect(SECRET_REQUIRED_DESCRIPTION).toMatch(/^Whoever learns a callback URL without a secret could send any verdict\./);
	expect(SECRET_REQUIRED_DESCRIPTION).toMatch(/\?token=/);
	expect(SECRET_REQUIRED_DESCRIPTION).toMatch(/the same secret in the account webhook's URL/);
});

test("the test URL's note says why the call was accepted and what production needs", () => {
	expect(TEST_URL_NOTE).toBe(
		'Accepted without a Callback Secret because this is a test call. In production, callbacks are refused until the Content Moderation API credential has a Callback Secret of 16 or more characters.',
	);
});
