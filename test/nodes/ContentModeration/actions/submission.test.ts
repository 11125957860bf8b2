/** The options both moderation requests carry: metadata, actor, callback URL, defer; checked before sending. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { submissionOptions, submissionSteps } from '@package/nodes/ContentModeration/actions/submission';
import type { NodeRun } from '@package/nodes/ContentModeration/actions/operation';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import type { ApiClient } from '@package/nodes/ContentModeration/transport/client';
import { contentModerationNode } from '@test/helpers/fixtures';

const RESUME_URL = 'http://n8n.test/webhook-waiting/42?signature=resume-token';

function context(mode: string, resumeUrl = RESUME_URL): IExecuteFunctions {
	const nodeContext: IDataObject = {};
	return {
		getNode: () => contentModerationNode,
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => (name === 'mode' ? mode : fallback),
		evaluateExpression: () => resumeUrl,
		getContext: () => nodeContext,
	} as unknown as IExecuteFunctions;
}

/** A client that only knows its Callback Secret; counts how often it was asked. */
function client(secret = 'cb-secret', baseUrl = 'http://127.0.0.1:4010'): ApiClient & { secretReads: number } {
	const fake = {
		secrets: [] as string[],
		secretReads: 0,
		async callbackSecret() {
			fake.secretReads++;
			return secret;
		},
		baseUrl: async () => baseUrl,
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

describe('the warning for a callback address the service cannot reach', () => {
	const PUBLIC_SERVICE = 'https://api.contentmod.io';
	const hintsFor = async (mode: string, fields: IDataObject, resumeUrl?: string) => {
		const hints: Array<string | undefined> = [];
		const run = { client: client('cb-secret', PUBLIC_SERVICE), hints } as unknown as NodeRun;
		await submissionOptions.call(context(mode, resumeUrl), 0, run, fields, undefined);
		return hints.filter((hint) => hint !== undefined);
	};

	it('Deferred: names the Callback URL and its local host', async () => {
		const hints = await hintsFor('deferred', { callbackUrl: 'http://localhost:5678/webhook/x/callback' });
		expect(hints).toEqual([expect.stringMatching(/^The Callback URL points at localhost, which the service at api\.contentmod\.io cannot reach/)]);
	});

	it("Wait for Callback: names the resume URL n8n built on its local default address", async () => {
		const hints = await hintsFor('waitCallback', {}, 'http://127.0.0.1:5678/webhook-waiting/42?signature=resume-token');
		expect(hints).toEqual([expect.stringMatching(/^Wait for Callback's resume URL points at 127\.0\.0\.1, which the service/)]);
	});
});

it('Deferred: a Callback URL expression that gives no text fails the item, naming the field and an expression that works', async () => {
	const error = await submit({ callbackUrl: { url: 'https://n8n.example.com/cb' } }, { mode: 'deferred', meta: undefined }).catch((e: unknown) => e);
	expect(error).toBeInstanceOf(NodeOperationError);
	expect((error as NodeOperationError).message).toMatch(/^The Callback URL must be a text/);
	expect((error as NodeOperationError).description).toContain('for example {{ $json.callbackUrl }}');
});

describe('submissionSteps: what Route by Verdict and the end of the run do in each Mode', () => {
	const steps = submissionSteps('an ID', 'Immediate');
	/** A context for item 0 in `mode`, on an n8n whose resume URL is `resumeUrl` (unsigned on n8n 1.x). */
	function runContext(mode: string, resumeUrl = RESUME_URL) {
		const waits: Date[] = [];
		const ctx = {
			...context(mode, resumeUrl),
			getInputData: () => [{ json: {} }],
			continueOnFail: () => false,
			getExecutionId: () => 'exec-1',
			logger: { warn: () => undefined },
			putExecutionToWait: async (until: Date) => void waits.push(until),
		} as unknown as IExecuteFunctions;
		return { ctx, waits };
	}
	const refusal = (mode: string, resumeUrl?: string) => steps.verdict.refusal!.call(runContext(mode, resumeUrl).ctx, 0);

	afterEach(() => resetProcessState());

	it("routes the service's answer itself: the result is the analysis", () => {
		const result = { id: 'm-1', isSafe: false, riskScores: { overall: 90 } };
		expect(steps.verdict.analysisOf(result)).toBe(result);
	});

	it('refuses Route by Verdict in Deferred (no result to route), not in Immediate or Deferred and Wait', () => {
		expect(refusal('deferred')?.message).toBe('Route by Verdict needs a moderation result, but Mode "Deferred" only returns an ID');
		expect(refusal('deferred')?.description).toMatch(/^Set Mode to Immediate, or turn off Route by Verdict/);
		expect([refusal('immediate'), refusal('deferredWait')]).toEqual([undefined, undefined]);
	});

	it('Wait for Callback: refuses Route by Verdict only on an n8n 1.x resume URL (no signature)', () => {
		expect(refusal('waitCallback')).toBeUndefined();
		expect(refusal('waitCallback', 'http://n8n.test/webhook-waiting/42')?.message).toBe(
			'Route by Verdict with Mode "Wait for Callback" needs n8n 2.0 or newer',
		);
	});

	it('Wait for Callback puts the execution to wait for the moderations; other modes output what they have', async () => {
		const results = [{ json: { id: 'm-1' }, pairedItem: { item: 0 } }];
		const waiting = runContext('waitCallback');
		expect(await steps.finishRun.call(waiting.ctx, results, false, [])).toEqual([[{ json: {} }]]);
		expect(waiting.waits).toHaveLength(1);
		for (const mode of ['immediate', 'deferred', 'deferredWait']) {
			const other = runContext(mode);
			expect(await steps.finishRun.call(other.ctx, results, false, [])).toBeUndefined();
			expect(other.waits).toEqual([]);
		}
	});
});
