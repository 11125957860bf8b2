/**
 * The trigger's Callback Secret (the rule: inbound/secretRule.ts), checked when n8n sets the webhook up
 * (publishing, an update, n8n starting: n8n calls `checkExists` and fails publishing with the error's message;
 * the editor's test URL, mode 'manual', is set up without it) and on every call, through inbound/secrets.ts.
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, type ApiClient } from '../transport/client';
import { unregisteredWebhookMethods } from '../helpers/webhookMethods';
import { refuse } from '../inbound/refusal';
import { secretCache, type TriggerCredential } from '../inbound/secrets';
import {
	ACCEPT_WITHOUT_SECRET,
	isStrongSecret,
	SECRET_REQUIRED_DESCRIPTION,
	secretRequiredMessage,
	secretStanding,
	type SecretStanding,
} from '../inbound/secretRule';
import { givenTokens } from '../inbound/token';

/** How a call in `ctx` stands with a Callback Secret that is `strong` (undefined: no credential selected). */
function standingIn(ctx: IHookFunctions | IWebhookFunctions, strong: boolean | undefined): SecretStanding {
	const accept = ctx.getNodeParameter(`options.${ACCEPT_WITHOUT_SECRET}`, false) === true;
	return secretStanding(strong, ctx.getMode() === 'manual', accept);
}

async function refuseWithoutSecret(this: IHookFunctions): Promise<boolean> {
	const hasCredential = this.getNode().credentials?.[CREDENTIAL_TYPE] !== undefined;
	const strong = hasCredential
		? isStrongSecret(String((await this.getCredentials(CREDENTIAL_TYPE)).callbackSecret ?? ''))
		: undefined;
	if (standingIn(this, strong) === 'refused') {
		throw new NodeOperationError(this.getNode(), secretRequiredMessage(hasCredential), {
			description: SECRET_REQUIRED_DESCRIPTION,
		});
	}
	return true;
}

export const triggerWebhookMethods = {
	default: { ...unregisteredWebhookMethods.default, checkExists: refuseWithoutSecret },
};

/** `owner`: whose credential the cache entry is (the trigger with its credential). */
export async function checkSecret(
	ctx: IWebhookFunctions,
	client: ApiClient | undefined,
	owner: string,
	query: IDataObject,
	headers: IDataObject,
): Promise<{ credential?: TriggerCredential; standing: SecretStanding } | { refused: IWebhookResponseData }> {
	let credential: TriggerCredential | undefined;
	if (client !== undefined) {
		try {
			const read = async () => ({
				callbackSecret: await client.callbackSecret(),
				secrets: await client.credentialSecrets(),
			});
			const { check, ...rest } = await secretCache.check(owner, givenTokens(query, headers), read);
			if (!check.ok) return { refused: refuse(ctx, 401, check.message) };
			credential = rest.credential;
		} catch {
			// Without the credential its secret cannot be checked: refuse rather than let anyone in. 503, not 500:
			// a read may fail for a moment (n8n's database, a key being rotated), and the sender's retry keeps the completion.
			const message =
				'The Content Moderation API credential of this trigger could not be read; try this callback again';
			return { refused: refuse(ctx, 503, message) };
		}
	}
	const standing = standingIn(ctx, credential?.strong);
	// The credential was changed after publishing (publishing checks it too): 503, the sender may try again.
	if (standing === 'refused') return { refused: refuse(ctx, 503, secretRequiredMessage(client !== undefined)) };
	return { credential, standing };
}
