/** The options both moderation requests carry: metadata, actor, callback URL, defer; checked before sending. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { submissionOptions } from '@package/nodes/ContentModeration/actions/submission';
import type { NodeRun } from '@package/nodes/ContentModeration/actions/operation';
import type { ApiClient } from '@package/nodes/ContentModeration/transport/client';
import { contentModerationNode } from '@test/helpers/fixtures';

const RESUME_URL = 'http://n8n.test/webhook-waiting/42?signature=resume-token';

function context(mode: string): IExecuteFunctions {
	const nodeContext: IDataObject = {};
	return {
		getNode: () => contentModerationNode,
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => (name === 'mode' ? mode : fallback),
		evaluateExpression: () => RESUME_URL,
		getContext: () => nodeContext,
	} as unknown as IExecuteFunctions;
}

/** A client that only knows its Callback Secret; counts how often it was asked. */
function client(secret = 'cb-secret'): ApiClient & { secretReads: number } {
	const fake = {
		secrets: [] as string[],
		secretReads: 0,
		async callbackSecret() {
			fake.secretReads++;
			return secret;
		},
		baseUrl: async () => 'http://127.0.0.1:4010',
	};
	return fake as unknown as ApiClient & { secretReads: number };
}

type Settings = { mode: string; meta: Parameters<typeof submissionOptions>[3] };
const submit = async (fields: IDataObject, { mode, meta }: Settings, api = client()) =>
	await submissionOptions.call(context(mode), 0, { client: api, hints: [] } as unknown as NodeRun, fields, meta);

describe('submissionOptions', () => {
	it('Immediate: metadata under both keys and the actor, no callback URL and no defer', async () => {
		const { options, secrets } = await submit(
			{ actorId: ' user-7 ', callbackUrl: 'https://n8n.example.com/webhook/x/callback' },
			{ mode: 'immediate', meta: { orderId: 'A-17' } },
		);
		expect(options).toEqual({ meta: { orderId: 'A-17' }, metadata: { orderId: 'A-17' }, actorId: 'user-7' });
		expect(secrets).toBeUndefined();
	});

	it("Deferred: the pasted Callback URL with the credential's secret added, and defer", async () => {
		const api = client();
		const { options } = await submit(
			{ callbackUrl: 'https://n8n.example.com/webhook/x/callback' },
			{ mode: 'deferred', meta: undefined },
			api,
		);
		expect(options).toEqual({ callbackUrl: 'https://n8n.example.com/webhook/x/callback?token=cb-secret', defer: true });
		expect(api.secretReads).toBe(1);
	});

	it('Deferred and Wait is deferred too; an unknown mode (a hand-edited workflow) fails the item before anything is read', async () => {
		const fields = { callbackUrl: 'https://n8n.example.com/webhook/x/callback' };
		expect((await submit(fields, { mode: 'deferredWait', meta: undefined })).options.defer).toBe(true);
		const api = client();
		const error = await submit(fields, { mode: 'foo', meta: undefined }, api).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		const { message, description, context: where } = error as NodeOperationError;
		expect([message, description, where.itemIndex, api.secretReads]).toEqual([
			'Unknown Mode "foo"',
			expect.stringContaining('Choose a Mode from the list'),
			0,
			0,
		]);
	});

	it("Wait for Callback: the waiting execution's own URL, whose key and resume token are secrets", async () => {
		const { options, secrets } = await submit({ callbackUrl: 'https://ignored.example.com' }, { mode: 'waitCallback', meta: undefined });
		const url = new URL(String(options.callbackUrl));
		expect(url.pathname).toBe('/webhook-waiting/42/callback');
		expect(options.defer).toBe(true);
		expect(secrets).toEqual(expect.arrayContaining(['resume-token', url.searchParams.get('key')]));
	});

	it('refuses a pasted ?token= and a URL that is not http(s), naming Callback URL, before reading the credential', async () => {
		const api = client();
		const pasted = submit({ callbackUrl: 'https://n8n.example.com/cb?token=mine' }, { mode: 'deferred', meta: undefined }, api);
		await expect(pasted).rejects.toThrow(NodeOperationError);
		await expect(pasted).rejects.toThrow(/Callback URL/);
		const notHttp = submit({ callbackUrl: 'ftp://example.com/cb' }, { mode: 'deferred', meta: undefined }, api);
		await expect(notHttp).rejects.toThrow(/Callback URL/);
		expect(api.secretReads).toBe(0);
		// The pasted token is known as a secret from then on, so no error or output shows it.
		expect(api.secrets).toContain('mine');
	});
});
