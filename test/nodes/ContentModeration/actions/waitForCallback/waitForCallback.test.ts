/**
 * Image > Moderate, Mode "Wait for Callback", through n8n-core's real engine: the execution is paused
 * and saved (test/helpers/engine/waiting.ts), the mock service's callbacks reach resume URLs served the
 * way n8n 2.41's WaitingWebhooks serves them, and every callback works on a freshly loaded execution.
 */
import type { IConnections, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { mockImageUrl, REVIEW_IMAGE_URL, SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { startMockService, type MockService } from '@dev/mock/server';
import { limiters } from '@package/nodes/ContentModeration/limiter/registry';
import {
	connect,
	moderateUrlParameters,
	runWorkflow,
	moderationNode,
	startWaitingHarness,
	type WaitingExecution,
	type WaitingHarness,
} from '@test/helpers/engine';
import { postCallback } from '@test/helpers/webhook-server';
import { startScriptedServer } from '@test/helpers/scripted-server';
import { waitFor } from '@dev/wait';

const NODE = 'Content Moderation';
const PROBE_TYPE = 'harness.probe';

/**
 * A downstream node that resolves `$('Start').item` for each of its input items: n8n's paired-item
 * lineage, the way a user's expression in a later node reads it.
 */
const probeNode: INodeType = {
	description: {
		displayName: 'Probe',
		name: 'probe',
		group: ['transform'],
		version: 1,
		description: 'Reads the paired Start item',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Value', name: 'value', type: 'string', default: '' }],
	},
	async execute(this: IExecuteFunctions) {
		return [
			this.getInputData().map((item, itemIndex): INodeExecutionData => {
				let paired: string | null;
				try {
					paired = (this.getNodeParameter('value', itemIndex) as string | undefined) ?? null;
				} catch (error) {
					paired = `error: ${(error as Error).message}`;
				}
				return { json: { own: item.json.name ?? null, paired }, pairedItem: { item: itemIndex } };
			}),
		];
	},
};

/** Start → Content Moderation, and each of its outputs → a probe reading `$('Start').item.json.name`. */
function withProbes(outputs: number) {
	const connections: IConnections = {};
	connect(connections, 'Start', NODE);
	const probes = Array.from({ length: outputs }, (_, index) => {
		const name = `Probe ${index}`;
		connect(connections, NODE, name, index);
		return { name, type: PROBE_TYPE, parameters: { value: "={{ $('Start').item.json.name }}" } };
	});
	return { connections, probes, nodeTypes: { [PROBE_TYPE]: probeNode } };
}

let mock: MockService;
let harness: WaitingHarness;

beforeAll(async () => {
	// Retries over about 25 s: a loaded machine can take seconds to save the waiting execution.
	mock = await startMockService({ callbackRetries: 8, callbackBackoffMs: 100 });
	harness = await startWaitingHarness();
});

afterAll(async () => {
	// The service first: its pending retries would otherwise reach the harness after the tests.
	await mock?.stop();
	await harness?.stop();
});

beforeEach(() => {
	// Each case is a fresh n8n process: callbacks of the cases before (still delivered by the mock) must not
	// share this case's limiter, whose Retry-After pauses they would otherwise lengthen.
	limiters.clear();
	mock.configure({ processMs: 30, processJitterMs: 0, faultRate: 0 });
	mock.reset();
});

function credentials() {
	return { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } };
}

function waitParameters(extra: INodeParameters = {}): INodeParameters {
	return moderateUrlParameters({ mode: 'waitCallback', waitTimeout: 600, ...extra });
}

function urlItems(urls: string[]): INodeExecutionData[] {
	return urls.map((url, index) => ({ json: { name: `item-${index}`, url } }));
}

function pairedIndex(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number' ? paired : paired?.item;
}

/** The callback URL the node gave the service for each submission, in submission order. */
function callbackUrls(): string[] {
	return mock.requests
		.filter((request) => request.method === 'POST' && request.path === '/image')
		.map((request) => String(((request.body as { options?: { callbackUrl?: string } }).options ?? {}).callbackUrl));
}

function gets(): number {
	return mock.requests.filter((request) => request.method === 'GET').length;
}

const post = postCallback;

interface StartExtra {
	saveDelayMs?: number;
	/** false: an n8n like 1.x (no resume token, no atomic resume) */
	resumeTokens?: boolean;
	onError?: 'continueRegularOutput';
	/** Adds a probe after each of this many outputs */
	probes?: number;
}

async function startWaiting(
	parameters: INodeParameters,
	items: INodeExecutionData[],
	extra: StartExtra = {},
): Promise<WaitingExecution> {
	const probes = extra.probes ? withProbes(extra.probes) : undefined;
	return await harness.start({
		nodes: [moderationNode(parameters, extra.onError ? { onError: extra.onError } : {}), ...(probes?.probes ?? [])],
		connections: probes?.connections,
		nodeTypes: probes?.nodeTypes,
		credentials: credentials(),
		items,
		saveDelayMs: extra.saveDelayMs,
		resumeTokens: extra.resumeTokens,
	});
}

interface RunView {
	runData: Record<string, unknown>;
	outputOf(node: string): INodeExecutionData[];
}

/** What each probe saw: its own item's name and what `$('Start').item.json.name` resolved to. */
function probed(run: RunView, probe: number): Array<{ own: unknown; paired: unknown }> {
	const name = `Probe ${probe}`;
	if (run.runData[name] === undefined) return [];
	return run.outputOf(name).map((item) => ({ own: item.json.own, paired: item.json.paired }));
}

describe('Wait for Callback', () => {
	it('pauses the execution, reads nothing while nothing is ready, and one callback resumes it', async () => {
		mock.configure({ processMs: 3_000 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL]));

		expect(execution.status).toBe('waiting');
		const waitTill = execution.waitTill?.getTime() ?? 0;
		expect(waitTill - Date.now()).toBeGreaterThan(590_000);
		expect(waitTill - Date.now()).toBeLessThanOrEqual(600_000);
		const [url] = callbackUrls();
		const parsed = new URL(url);
		expect(parsed.pathname).toBe(`/webhook-waiting/${execution.id}/callback`);
		expect(parsed.searchParams.get('signature')).toBe(execution.resumeToken);
		expect(parsed.searchParams.get('item')).toBe('0');
		expect(parsed.searchParams.get('key')).toMatch(/^[0-9a-f]{64}$/);

		// Nothing is ready for 3 s: the node polls nothing meanwhile.
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		expect(execution.status).toBe('waiting');
		expect(gets()).toBe(0);

		const run = await execution.finished(30_000);
		expect(run.status).toBe('success');
		const [output] = run.outputsOf(NODE);
		expect(output).toHaveLength(1);
		const submitted = mock.submissionLog[0].id;
		expect(output[0].json).toMatchObject({ id: submitted, isSafe: true });
		expect(pairedIndex(output[0])).toBe(0);
		expect(execution.resumes).toBe(1);
		expect(execution.webhookThrew).toBe(false);
		expect(execution.calls.filter((call) => call.resumed)).toHaveLength(1);
		// The callback carried the result: nothing had to be read back.
		expect(gets()).toBe(0);
		// The per-execution secret and item keys are no output.
		const outputs = JSON.stringify(run.runData);
		expect(outputs).not.toContain(parsed.searchParams.get('key'));
	});

	it('50 items completing in any order: resumed once, every result in input order, paired, routed', async () => {
		mock.configure({ processMs: 20, processJitterMs: 600 });
		const kinds = [SAFE_IMAGE_URL, UNSAFE_IMAGE_URL, REVIEW_IMAGE_URL];
		const urls = Array.from({ length: 50 }, (_, index) =>
			index % 5 === 4 ? mockImageUrl({ safe: true, reject: false, review: false, risk: 99 }, `risky-${index}`) : `${kinds[index % 3]}?n=${index}`,
		);
		const execution = await startWaiting(
			waitParameters({ routeByVerdict: true, reviewOutput: true, riskThreshold: 99, keepInput: true }),
			urlItems(urls),
			{ probes: 4 },
		);
		const run = await execution.finished(30_000);
		expect(run.status).toBe('success');
		expect(execution.resumes).toBe(1);
		expect(execution.webhookThrew).toBe(false);

		// Results completed out of submission order (the callbacks came in that order).
		const delivered = mock.callbacks.filter((attempt) => attempt.ok).map((attempt) => attempt.moderationId);
		const submitted = mock.submissionLog.map((submission) => submission.id);
		expect(new Set(submitted).size).toBe(50);
		expect(delivered).not.toEqual(submitted.slice(0, delivered.length));

		// Outputs in this mode: Timed Out (empty after a callback resume), Safe, Flagged, Review.
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(4);
		const [timedOut, safe, flagged, review] = outputs;
		expect(timedOut).toEqual([]);
		const all = [...safe, ...flagged, ...review];
		expect(all).toHaveLength(50);
		const indexOf = (item: INodeExecutionData) => Number(String(item.json.name).replace('item-', ''));
		// Keep Input Data: each result sits on its own input item, once, in input order within an output.
		expect(all.map(indexOf).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index));
		for (const items of [safe, flagged, review]) {
			const order = items.map(indexOf);
			expect(order).toEqual([...order].sort((a, b) => a - b));
		}
		const expected = (index: number) =>
			index % 5 === 4 ? 'flagged' : (['safe', 'flagged', 'review'] as const)[index % 3];
		for (const [items, verdict] of [
			[safe, 'safe'],
			[flagged, 'flagged'],
			[review, 'review'],
		] as const) {
			for (const item of items) {
				const index = indexOf(item);
				expect((item.json.moderation as { id: string }).id).toBe(submitted[index]);
				expect(item.json.verdict).toBe(verdict);
				expect(expected(index)).toBe(verdict);
			}
		}
		// n8n re-pairs a resumed node's outputs by position (see WAIT_CALLBACK_OUTPUT): after Safe, Flagged
		// and Review, `$('Start').item` resolves to nothing, never to another item.
		for (const probe of [1, 2, 3]) {
			for (const { own, paired } of probed(run, probe)) {
				if (typeof paired === 'string' && paired.startsWith('item-')) expect(paired).toBe(own);
			}
		}
	}, 90_000);

	it('without routing: one output, one result per input item at its index, n8n lineage exact', async () => {
		mock.configure({ processMs: 20, processJitterMs: 400 });
		const urls = Array.from({ length: 12 }, (_, index) => `${index % 2 ? UNSAFE_IMAGE_URL : SAFE_IMAGE_URL}?n=${index}`);
		const execution = await startWaiting(waitParameters(), urlItems(urls), { probes: 1 });
		const run = await execution.finished(20_000);
		expect(execution.resumes).toBe(1);
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(1);
		const submitted = mock.submissionLog.map((submission) => submission.id);
		expect(outputs[0].map((item) => item.json.id)).toEqual(submitted);
		expect(outputs[0].map(pairedIndex)).toEqual(Array.from({ length: 12 }, (_, index) => index));
		expect(outputs[0].map((item) => item.json.isSafe)).toEqual(urls.map((_, index) => index % 2 === 0));
		expect(probed(run, 0).map(({ paired }) => paired)).toEqual(urls.map((_, index) => `item-${index}`));
	}, 60_000);

	it('on an n8n without atomic resume (1.x), only the last waiting item\'s callback resumes, however many come at once', async () => {
		// Every result completes at the same moment, so the callbacks arrive together and each sees all ready.
		mock.configure({ processMs: 300 });
		const urls = Array.from({ length: 6 }, (_, index) => `${SAFE_IMAGE_URL}?n=${index}`);
		const execution = await startWaiting(waitParameters(), urlItems(urls), { resumeTokens: false });
		expect(execution.status).toBe('waiting');
		expect(execution.resumeToken).toBeUndefined();
		expect(callbackUrls().every((url) => !new URL(url).searchParams.has('signature'))).toBe(true);
		const run = await execution.finished(30_000);
		// Every callback of this execution was answered 2xx in the end (late ones included).
		const ids = mock.submissionLog.map((submission) => submission.id);
		await waitFor(
			'every callback acknowledged',
			() => (ids.every((id) => mock.callbacks.some((c) => c.moderationId === id && c.ok)) ? true : undefined),
			30_000,
			50,
		);
		expect(run.outputOf(NODE)).toHaveLength(6);
		expect(execution.resumes).toBe(1);
		const resumedBy = execution.calls.filter((call) => call.resumed).map((call) => call.query.item);
		expect(resumedBy).toEqual(['5']);
	});

	it('answers callbacks that arrive before the wait is saved with 409, and the retried ones resume it', async () => {
		mock.configure({ processMs: 0 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL, UNSAFE_IMAGE_URL]), {
			saveDelayMs: 300,
		});
		const run = await execution.finished(30_000);
		expect(run.status).toBe('success');
		const early = execution.calls.filter((call) => call.status === 409);
		expect(early.length).toBeGreaterThan(0);
		expect(mock.callbacks.some((attempt) => attempt.status === 409)).toBe(true);
		expect(run.outputOf(NODE).map((item) => item.json.isSafe)).toEqual([true, false]);
		expect(execution.resumes).toBe(1);
	});

	it('answers a repeated or late callback without starting anything', async () => {
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL]));
		await execution.finished(30_000);
		const [url] = callbackUrls();
		const result = mock.submissionLog[0].id;
		const again = await post(url, { id: result });
		expect(again.status).toBe(409);
		expect(execution.resumes).toBe(1);
		expect(execution.status).toBe('finished');
	});

	it('refuses a wrong key, an unknown item, a wrong signature and a foreign moderation id, and stays waiting', async () => {
		mock.configure({ processMs: 60_000 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL, SAFE_IMAGE_URL]));
		expect(execution.status).toBe('waiting');
		const [first, second] = callbackUrls();
		const id = mock.submissionLog[0].id;

		const wrongKey = new URL(first);
		wrongKey.searchParams.set('key', '0'.repeat(64));
		expect(await post(wrongKey.toString(), { id })).toMatchObject({ status: 401, body: { received: false } });

		// Item 1's key does not open item 0.
		const swapped = new URL(first);
		swapped.searchParams.set('key', new URL(second).searchParams.get('key') as string);
		expect((await post(swapped.toString(), { id })).status).toBe(401);

		const unknown = new URL(first);
		unknown.searchParams.set('item', '7');
		expect((await post(unknown.toString(), { id })).status).toBe(404);

		const unsigned = new URL(first);
		unsigned.searchParams.set('signature', 'x'.repeat(20));
		expect(await post(unsigned.toString(), { id })).toMatchObject({ status: 401, body: { error: 'Invalid token' } });

		expect((await post(first, { id: mock.submissionLog[1].id })).status).toBe(422);

		// A genuine callback while the result is not ready yet: acknowledged, nothing resumed.
		expect(await post(first, { id })).toMatchObject({ status: 200, body: { received: true, resumed: false } });

		expect(execution.status).toBe('waiting');
		expect(execution.resumes).toBe(0);
		expect(execution.webhookThrew).toBe(false);
	});

	it('answers 503 (so the service retries) when the results cannot be read, and stays waiting', async () => {
		mock.configure({ processMs: 60_000 });
		const execution = await startWaiting(waitParameters(), urlItems([SAFE_IMAGE_URL]));
		mock.configure({ faultRate: 1 });
		const [url] = callbackUrls();
		// A callback without the result in its body: the node must read it, and every read fails.
		const failed = await post(url, { id: mock.submissionLog[0].id });
		expect(failed).toMatchObject({ status: 503, body: { received: false } });
		expect(JSON.stringify(failed.body)).not.toContain(mock.token);
		expect(execution.status).toBe('waiting');
		expect(execution.resumes).toBe(0);
		expect(execution.webhookThrew).toBe(false);
	});

	it('at the Wait Timeout n8n resumes without the node: the input items go unchanged to the first output (Timed Out)', async () => {
		mock.configure({ processMs: 60_000 });
		const execution = await startWaiting(
			waitParameters({ routeByVerdict: true, waitTimeout: 1 }),
			urlItems([SAFE_IMAGE_URL, UNSAFE_IMAGE_URL]),
			{ probes: 4 },
		);
		expect(execution.status).toBe('waiting');
		const run = await execution.expire();
		expect(run.status).toBe('success');
		// n8n passes the input on as the first output only.
		expect(run.outputsOf(NODE)).toHaveLength(1);
		const [flagged] = run.outputsOf(NODE);
		expect(flagged.map((item) => item.json)).toEqual([
			{ name: 'item-0', url: SAFE_IMAGE_URL },
			{ name: 'item-1', url: UNSAFE_IMAGE_URL },
		]);
		// Nothing there looks like a result: no verdict, no isSafe; each stays paired to its input item.
		expect(flagged.every((item) => item.json.verdict === undefined && item.json.isSafe === undefined)).toBe(true);
		expect(probed(run, 0)).toEqual([
			{ own: 'item-0', paired: 'item-0' },
			{ own: 'item-1', paired: 'item-1' },
		]);
		expect(probed(run, 1)).toEqual([]);
	});

	it('at the Wait Timeout with some results in and some missing: every input item on Timed Out, none as a result', async () => {
		// Completion times spread over 30 s: some results come in before the timeout, some do not.
		mock.configure({ processMs: 50, processJitterMs: 30_000 });
		const urls = Array.from({ length: 6 }, (_, index) => `${SAFE_IMAGE_URL}?n=${index}`);
		const execution = await startWaiting(waitParameters({ routeByVerdict: true, waitTimeout: 1 }), urlItems(urls));
		await waitFor(
			'a first callback',
			() => (execution.calls.some((call) => call.status === 200 && !call.resumed) ? true : undefined),
			30_000,
			50,
		);
		expect(execution.status).toBe('waiting');
		const run = await execution.expire();
		expect(execution.resumes).toBe(1);
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(1);
		expect(outputs[0].map((item) => item.json)).toEqual(urls.map((url, index) => ({ name: `item-${index}`, url })));
	});

	it('keeps the callback URL\'s key and n8n\'s resume token out of an error that echoes the request', async () => {
		// A service that refuses the submission and repeats what it was sent.
		const echo = await startScriptedServer((request) => ({
			status: 400,
			body: { error: { message: `bad request: ${JSON.stringify(request.body)}` } },
		}));
		try {
			const run = await runWorkflow({
				nodes: [moderationNode(waitParameters())],
				credentials: { contentModerationApi: { baseUrl: echo.url, accessToken: 'echo-token-1234' } },
				items: urlItems([SAFE_IMAGE_URL]),
			});
			expect(run.status).toBe('error');
			const sent = new URL((echo.requests[0].body as { options: { callbackUrl: string } }).options.callbackUrl);
			const key = sent.searchParams.get('key') as string;
			const signature = sent.searchParams.get('signature') as string;
			expect(key).toMatch(/^[0-9a-f]{64}$/);
			expect(signature.length).toBeGreaterThan(10);
			// The node's error and run data (n8n keeps its own resume token elsewhere in the execution).
			const error = run.errorOf(NODE) as unknown as Record<string, unknown>;
			const dump = JSON.stringify({
				message: error.message,
				description: error.description,
				response: error.errorResponse,
				stack: error.stack,
				runData: run.runData,
			});
			expect(dump).toContain('bad request');
			expect(dump).not.toContain(key);
			expect(dump).not.toContain(signature);
		} finally {
			await echo.stop();
		}
	});

	it('submission failures under On Error: Continue stay paired error items next to the results', async () => {
		const execution = await startWaiting(
			waitParameters({ routeByVerdict: true }),
			urlItems([SAFE_IMAGE_URL, 'not a url', UNSAFE_IMAGE_URL]),
			{ onError: 'continueRegularOutput' },
		);
		const run = await execution.finished(30_000);
		const [timedOut, safe, flagged] = run.outputsOf(NODE);
		expect(timedOut).toEqual([]);
		expect(safe.map((item) => item.json.name)).toEqual(['item-0']);
		expect(flagged).toHaveLength(2);
		expect(flagged[0].json.error).toEqual(expect.stringContaining('Image URL'));
		expect(flagged[1].json).toMatchObject({ name: 'item-2', verdict: 'flagged' });
	});
});
