/**
 * Publishing the trigger (trigger/secretCheck.ts): n8n calls `webhookMethods.default.checkExists` when it
 * sets the webhook up and fails publishing with the message of what it throws. Called here as n8n calls
 * it, with the hook context's parts the method uses.
 */
import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ContentModerationTrigger } from '@package/nodes/ContentModeration/ContentModerationTrigger.node';
import { SECRET_REQUIRED_DESCRIPTION, secretRequiredMessage } from '@package/nodes/ContentModeration/inbound/secretRule';

interface Setup {
	/** undefined: no credential selected */
	secret?: string;
	mode?: 'manual' | 'trigger';
	acceptWithoutSecret?: boolean;
}

async function checkExists({ secret, mode = 'trigger', acceptWithoutSecret }: Setup): Promise<boolean> {
	const node = {
		id: 'n1',
		name: 'Content Moderation Trigger',
		type: 'n8n-nodes-content-moderation.contentModerationTrigger',
		typeVersion: 2,
		position: [0, 0] as [number, number],
		parameters: {},
		credentials: secret === undefined ? undefined : { contentModerationApi: { id: 'c1', name: 'Content Moderation account' } },
	};
	const context = {
		getNode: () => node,
		getMode: () => mode,
		getActivationMode: () => (mode === 'manual' ? 'manual' : 'activate'),
		getCredentials: async () => ({ baseUrl: 'http://127.0.0.1:9', accessToken: 'sk-1', callbackSecret: secret }),
		getNodeParameter: (name: string, fallback: unknown) =>
			name === 'options.acceptWithoutSecret' && acceptWithoutSecret !== undefined ? acceptWithoutSecret : fallback,
	} as unknown as IHookFunctions;
	return await new ContentModerationTrigger().webhookMethods.default.checkExists.call(context);
}

const refusal = async (setup: Setup) => await checkExists(setup).then(() => undefined, (error: unknown) => error as NodeOperationError);

describe('publishing the trigger', () => {
	test.each([
		['no Callback Secret', ''],
		['a 15-character one', 'cb-short/15char'],
	])('with %s: refused, the message naming the credential field and how to fill it', async (_name, secret) => {
		const error = await refusal({ secret });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe(secretRequiredMessage(true));
		expect(error?.message).toMatch(/Content Moderation API credential's "Callback Secret" field to 16 or more random characters/);
		expect(error?.description).toBe(SECRET_REQUIRED_DESCRIPTION);
	});

	test('without a credential: refused, the message saying to select one', async () => {
		expect((await refusal({}))?.message).toBe(secretRequiredMessage(false));
		// Nothing can be read back without one: the option does not help.
		expect((await refusal({ acceptWithoutSecret: true }))?.message).toBe(secretRequiredMessage(false));
	});

	test('with a 16-character secret, or with Accept Callbacks Without a Secret: published', async () => {
		expect(await checkExists({ secret: 'cb-strong/16char' })).toBe(true);
		expect(await checkExists({ secret: '', acceptWithoutSecret: true })).toBe(true);
	});

	test("the editor's test URL (mode manual) is set up without a secret or a credential", async () => {
		expect(await checkExists({ secret: '', mode: 'manual' })).toBe(true);
		expect(await checkExists({ mode: 'manual' })).toBe(true);
	});
});
