/**
 * Secure by default: in production, callbacks need a strong Callback Secret unless `acceptWithoutSecret` is on
 * (then a result is read back, not trusted). The editor's test URL accepts and says so.
 */
import type { INodeProperties } from 'n8n-workflow';

export const MIN_CALLBACK_SECRET_LENGTH = 16;

export const ACCEPT_WITHOUT_SECRET = 'acceptWithoutSecret';

export const acceptWithoutSecretOption: INodeProperties = {
	displayName: 'Accept Callbacks Without a Secret',
	name: ACCEPT_WITHOUT_SECRET,
	type: 'boolean',
	default: false,
	description: `Whether to accept callbacks when the credential has no Callback Secret of ${MIN_CALLBACK_SECRET_LENGTH} or more characters. Risky: anyone who learns the URL can then send callbacks. A result is then read back from the service by its ID (GET /image/{ID} or GET /text/{ID}) instead of taken from the call; review decisions and other events cannot be read back, so they are refused (they need the Callback Secret).`,
};

export function isStrongSecret(secret: string): boolean {
	return secret.length >= MIN_CALLBACK_SECRET_LENGTH;
}

const FIELD = `"Callback Secret" field to ${MIN_CALLBACK_SECRET_LENGTH} or more random characters (for example the output of "openssl rand -hex 16")`;

/** The refusal's message, naming the field and how to fill it; `hasCredential` false: none is selected. */
export function secretRequiredMessage(hasCredential = true): string {
	return hasCredential
		? `Callbacks are accepted only with a Callback Secret: set the Content Moderation API credential's ${FIELD}, or turn on Options > Accept Callbacks Without a Secret`
		: `Callbacks are accepted only with a Callback Secret: select a Content Moderation API credential and set its ${FIELD}`;
}

export const SECRET_REQUIRED_DESCRIPTION = `Whoever learns a callback URL without a secret could send any verdict. The Content Moderation node adds the Callback Secret to the Callback URLs it sends (?token=…); give the same secret in the account webhook's URL. The editor's test URL works without one.`;

export const TEST_URL_NOTE = `Accepted without a Callback Secret because this is a test call. In production, callbacks are refused until the Content Moderation API credential has a Callback Secret of ${MIN_CALLBACK_SECRET_LENGTH} or more characters.`;

/**
 * How a call is treated: `secured` by a strong secret; `testUrl` accepted as a test call; `readBack` accepted
 * by the option, results read back; `refused`. `strong` undefined: no credential, nothing can be read back.
 */
export type SecretStanding = 'secured' | 'testUrl' | 'readBack' | 'refused';

export function secretStanding(
	strong: boolean | undefined,
	manual: boolean,
	acceptWithoutSecret: boolean,
): SecretStanding {
	if (strong === true) return 'secured';
	if (manual) return 'testUrl';
	return acceptWithoutSecret && strong !== undefined ? 'readBack' : 'refused';
}
