/**
 * The trigger's check of a call: its token against the credential's Callback Secret (through the secret
 * cache, inbound/secrets.ts), then the rule of inbound/secretRule.ts: a published trigger without a strong
 * secret refuses, unless Accept Callbacks Without a Secret is on (results are then read back).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { ApiClient } from '../transport/client';
import { refuse } from '../inbound/refusal';
import { secretCache, type TriggerCredential } from '../inbound/secrets';
import { ACCEPT_WITHOUT_SECRET, secretRequiredMessage, secretStanding, type SecretStanding } from '../inbound/secretRule';
import { givenTokens } from '../inbound/token';

export type Checked = { known?: TriggerCredential; standing: SecretStanding } | { refused: IWebhookResponseData };

/** `owner`: whose credential the cache entry is (the trigger with its credential). */
export async function checkSecret(
	ctx: IWebhookFunctions,
	client: ApiClient | undefined,
	owner: string,
	query: IDataObject,
	headers: IDataObject,
): Promise<Checked> {
	const standing = (strong: boolean | undefined) =>
		secretStanding(strong, ctx.getMode() === 'manual', ctx.getNodeParameter(`options.${ACCEPT_WITHOUT_SECRET}`, false) === true);
	// The credential was changed after publishing (publishing checks it too): 503, the sender may try again.
	const refused = () => ({ refused: refuse(ctx, 503, secretRequiredMessage(client !== undefined)) });
	if (client === undefined) return standing(undefined) === 'refused' ? refused() : { standing: standing(undefined) };
	let known: TriggerCredential;
	try {
		const read = async () => ({ callbackSecret: await client.callbackSecret(), secrets: await client.credentialSecrets() });
		const { check, ...rest } = await secretCache.check(owner, givenTokens(query, headers), read);
		if (!check.ok) return { refused: refuse(ctx, 401, check.message) };
		known = rest.credential;
	} catch {
		// Without the credential its secret cannot be checked: refuse rather than let anyone in.
		return { refused: refuse(ctx, 500, 'The Content Moderation API credential of this trigger could not be read') };
	}
	const verdict = standing(known.strong);
	return verdict === 'refused' ? refused() : { known, standing: verdict };
}
