/**
 * secretCheck.ts on its own, on fake contexts: publishing's check (triggerWebhookMethods) and a call's check
 * (checkSecret), with a fake client for the credential's reads.
 */
import { randomUUID } from 'node:crypto';

import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkSecret, triggerWebhookMethods } from '@package/nodes/ContentModeration/trigger/secretCheck';
import {
	SECRET_REQUIRED_DESCRIPTION,
	secretRequiredMessage,
} from '@package/nodes/ContentModeration/inbound/secretRule';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import type { ApiClient } from '@package/nodes/ContentModeration/transport/client';

const STRONG = 'cb-strong/16char';

interface Setup {
	/** undefined: no credential selected */
	credential?: { callbackSecret?: string };
	mode?: 'manual' | 'webhook';
	/** The option as set; undefined: not set (the fallback given is returned). */
	accept?: boolean;
}

function context({ credential, mode = 'webhook', accept }: Setup) {
	const written: Array<{ status: number; body: unknown }> = [];
	let status = 0;
	const response = {
		writeHead: (code: number) => (status = code),
		end: (text: string) => written.push({ status, body: JSON.parse(text) as unknown }),
	};
	const ctx = {
		getNode: () => ({
			name: 'Content Moderation Trigger',
			credentials: credential === undefined ? undefined : { contentModerationApi: { id: 'c1', name: 'account' } },
		}),
		getMode: () => mode,
		getCredentials: async () => ({ accessToken: 'sk-1', ...credential }),
		getNodeParameter: (name: string, fallback: unknown) =>
			name === 'options.acceptWithoutSecret' && accept !== undefined ? accept : fallback,
		getResponseObject: () => response,
	};
	return { ctx, written };
}

describe('publishing: checkExists', () => {
	const checkExists = async (setup: Setup) =>
		await triggerWebhookMethods.default.checkExists.call(context(setup).ctx as unknown as IHookFunctions);
	const refusal = async (setup: Setup) =>
		await checkExists(setup).then(
			() => undefined,
			(error: unknown) => error as NodeOperationError,
		);

	test('a strong Callback Secret publishes; create and delete have nothing to do', async () => {
		await expect(checkExists({ credential: { callbackSecret: STRONG } })).resolves.toBe(true);
		await expect(triggerWebhookMethods.default.create.call({} as IHookFunctions)).resolves.toBe(true);
		await expect(triggerWebhookMethods.default.delete.call({} as IHookFunctions)).resolves.toBe(true);
	});

	test.each<[string, Setup['credential']]>([
		['an empty secret', { callbackSecret: '' }],
		['a short secret', { callbackSecret: 'cb-short/15char' }],
		['no secret field at all', {}],
	])('%s in production: refused with the message and description', async (_, credential) => {
		const error = await refusal({ credential });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe(secretRequiredMessage(true));
		expect(error?.description).toBe(SECRET_REQUIRED_DESCRIPTION);
	});

	test('no credential: refused, saying to select one, the option notwithstanding', async () => {
		expect((await refusal({}))?.message).toBe(secretRequiredMessage(false));
		expect((await refusal({ accept: true }))?.message).toBe(secretRequiredMessage(false));
	});

	test('Accept Callbacks Without a Secret publishes a weak one; set to false, or not set, it does not', async () => {
		await expect(checkExists({ credential: { callbackSecret: '' }, accept: true })).resolves.toBe(true);
		expect((await refusal({ credential: { callbackSecret: '' }, accept: false }))?.message).toBe(
			secretRequiredMessage(true),
		);
	});

	test("the editor's test URL is set up without a secret", async () => {
		await expect(checkExists({ credential: { callbackSecret: '' }, mode: 'manual' })).resolves.toBe(true);
		await expect(checkExists({ mode: 'manual' })).resolves.toBe(true);
	});
});

describe('a call: checkSecret', () => {
	beforeEach(() => resetProcessState());

	const client = (callbackSecret: string | Error, secrets: string[] = ['sk-1']) =>
		({
			callbackSecret: async () => {
				if (callbackSecret instanceof Error) throw callbackSecret;
				return callbackSecret;
			},
			credentialSecrets: async () => [...secrets, ...(callbackSecret instanceof Error ? [] : [callbackSecret])],
		}) as unknown as ApiClient;

	async function check(setup: Setup, api: ApiClient | undefined, query: Record<string, string> = {}, headers = {}) {
		const { ctx, written } = context(setup);
		const checked = await checkSecret(ctx as unknown as IWebhookFunctions, api, randomUUID(), query, headers);
		return { checked, written };
	}

	test('the right token (query or header) against a strong secret: secured, with the credential', async () => {
		for (const [query, headers] of [
			[{ token: STRONG }, {}],
			[{}, { 'x-callback-token': STRONG }],
		]) {
			const { checked, written } = await check({ credential: {} }, client(STRONG), query, headers);
			expect(written).toEqual([]);
			if ('refused' in checked) throw new Error('refused');
			expect(checked.standing).toBe('secured');
			expect(checked.credential?.strong).toBe(true);
		}
	});

	test('a wrong or missing token: 401 with the check message, nothing else read', async () => {
		const wrong = await check({ credential: {} }, client(STRONG), {
			token: 'not-the-secret-00',
		});
		expect(wrong.checked).toEqual({ refused: { noWebhookResponse: true } });
		expect(wrong.written).toEqual([
			{
				status: 401,
				body: {
					received: false,
					error: { status: 401, message: expect.any(String) },
				},
			},
		]);
		const missing = await check({ credential: {} }, client(STRONG));
		expect(missing.written[0].status).toBe(401);
		expect(JSON.stringify(missing.written[0].body)).toMatch(/Missing callback token/);
	});

	test('a credential that cannot be read: 503, asking to try again', async () => {
		const { checked, written } = await check({ credential: {} }, client(new Error('vault down')), { token: STRONG });
		expect(checked).toEqual({ refused: { noWebhookResponse: true } });
		expect(written).toEqual([
			{
				status: 503,
				body: {
					received: false,
					error: {
						status: 503,
						message: 'The Content Moderation API credential of this trigger could not be read; try this callback again',
					},
				},
			},
		]);
	});

	test('a weak secret in production: 503 naming the credential field; with the option: read back', async () => {
		const refused = await check({ credential: {} }, client(''));
		expect(refused.written).toEqual([
			{
				status: 503,
				body: {
					received: false,
					error: { status: 503, message: secretRequiredMessage(true) },
				},
			},
		]);
		const readBack = await check({ credential: {}, accept: true }, client(''));
		expect(readBack.written).toEqual([]);
		expect(readBack.checked).toMatchObject({
			standing: 'readBack',
			credential: { strong: false },
		});
	});

	test('without a credential (no client): 503 saying to select one; the test URL accepts', async () => {
		const refused = await check({}, undefined);
		expect(refused.written).toEqual([
			{
				status: 503,
				body: {
					received: false,
					error: { status: 503, message: secretRequiredMessage(false) },
				},
			},
		]);
		const manual = await check({ mode: 'manual' }, undefined);
		expect(manual.written).toEqual([]);
		expect(manual.checked).toEqual({
			credential: undefined,
			standing: 'testUrl',
		});
	});
});
