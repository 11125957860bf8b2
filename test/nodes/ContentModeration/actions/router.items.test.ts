/**
 * The router (router.ts), fast: a few items per run through n8n-core's engine against the mock. The item loop
 * (order, pairing, On Error), a run that fails or is cancelled, Route by Verdict's steps, the hints, and the
 * claims of Callback > Receive (committed when the run succeeds, released when it fails).
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { waitFor } from '@dev/wait';
import { router } from '@package/nodes/ContentModeration/actions/router';
import { ContentModeration } from '@package/nodes/ContentModeration/ContentModeration.node';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { RunClaims } from '@package/nodes/ContentModeration/inbound/runClaims';
import { imageResult } from '@test/helpers/callbackBodies';
import { moderateUrlParameters, moderationNode, prepareWorkflow, runWorkflow, type WorkflowRun } from '@test/helpers/engine';
import { contentModerationNode } from '@test/helpers/fixtures';
import { NODE_NAME, nodeError, output, SECRET_TOKEN, UNKNOWN_ID, useMock } from '@test/helpers/nodeRun';
import { FLAGGED, imageUrl, inputs, names, SAFE } from '@test/helpers/routing';

const mock = useMock();
const credentials = (more: IDataObject = {}) => ({
	contentModerationApi: { baseUrl: mock.service.url, accessToken: SECRET_TOKEN, ...more },
});
const hintsOf = (run: WorkflowRun) => (run.runData[NODE_NAME]?.[0]?.hints ?? []).map((hint) => hint.message);
const images = inputs({ safe: imageUrl('safe'), flagged: imageUrl('flagged', { safe: false, risk: 90 }) });
/** Each output item's input and verdict. */
const verdicts = (items: INodeExecutionData[]) => items.map((item) => [item.pairedItem, item.json.isSafe]);

beforeEach(() => resetProcessState());

describe('the item loop', () => {
	it('is the node’s execute; an operation it does not have fails with its name, before anything is read', async () => {
		expect(new ContentModeration().execute).toBe(router);
		for (const [resource, operation] of [['image', 'nope'], ['nope', 'get']]) {
			const ctx = {
				getExecutionCancelSignal: () => undefined,
				getNodeParameter: (name: string) => ({ resource, operation })[name],
				getNode: () => contentModerationNode,
			} as unknown as IExecuteFunctions;
			await expect(router.call(ctx)).rejects.toThrow(`The operation "${operation}" of resource "${resource}" is not supported`);
		}
	});

	it('On Error "Continue": an error item for the failing input, every output in input order and paired, no hints', async () => {
		const items = [SAFE_IMAGE_URL, 'ftp://bad', SAFE_IMAGE_URL].map((url) => ({ json: { url } }));
		const run = await mock.run(moderateUrlParameters(), items, { onError: 'continueRegularOutput' });
		const out = output(run);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out.map((item) => typeof item.json.isSafe)).toEqual(['boolean', 'undefined', 'boolean']);
		expect(out[1].json.error).toContain('The Image URL must be an http(s) URL, not ftp');
		expect(hintsOf(run)).toEqual([]);
	});

	it('a failing item fails the run with its own error; the others are stopped before they send anything', async () => {
		const items = Array.from({ length: 10 }, (_, i) => ({ json: { url: i === 5 ? 'ftp://cdn.example.com/5.jpg' : `https://img.test/${i}.jpg` } }));
		const run = await mock.run(moderateUrlParameters(), items);
		expect(nodeError(run).message).toBe('The Image URL must be an http(s) URL, not ftp [item 5]');
		expect(mock.service.requests).toHaveLength(0);
	});

	it('runs when n8n gives no cancel signal', async () => {
		// IExecuteFunctions may have none; the router then aborts only on a failed run.
		const withoutSignal: INodeType = {
			description: new ContentModeration().description,
			execute(this: IExecuteFunctions) {
				return router.call(Object.create(this, { getExecutionCancelSignal: { value: () => undefined } }) as IExecuteFunctions);
			},
		};
		const node = { ...moderationNode(moderateUrlParameters()), type: 'test.noSignal' };
		const run = await runWorkflow({ nodes: [node], nodeTypes: { 'test.noSignal': withoutSignal }, credentials: credentials(), items: images });
		expect(verdicts(run.outputOf(NODE_NAME))).toEqual([[{ item: 0 }, true], [{ item: 1 }, false]]);
	});

	it('a cancelled execution aborts its requests in flight', async () => {
		mock.service.configure({ latencyMs: 10_000 });
		try {
			const { workflow, additionalData, startNode, core } = await prepareWorkflow({
				nodes: [moderationNode(moderateUrlParameters())],
				credentials: credentials(),
				items: images,
			});
			const running = new core.WorkflowExecute(additionalData, 'manual').run({ workflow, startNode });
			await waitFor('two requests in flight', () => (mock.service.traffic.inFlight === 2 || undefined), 10_000, 5);
			running.cancel();
			// Far below the latency: the connections were dropped, not answered.
			await waitFor('the requests aborted', () => (mock.service.traffic.inFlight === 0 || undefined), 3_000, 5);
		} finally {
			mock.service.configure({ latencyMs: 0 });
		}
	});
});

describe('Route by Verdict', () => {
	const moderate = (extra: INodeParameters) => mock.run(moderateUrlParameters(extra), images);

	it('off: one output in input order, no hint; on: each result by its verdict', async () => {
		const plain = await moderate({});
		expect(plain.outputsOf(NODE_NAME).map(verdicts)).toEqual([[[{ item: 0 }, true], [{ item: 1 }, false]]]);
		expect(hintsOf(plain)).toEqual([]);
		const routed = await moderate({ routeByVerdict: true, riskThreshold: 70 });
		// Route by Verdict outputs the input items (Keep Input Data).
		expect(names(routed.outputOf(NODE_NAME, SAFE))).toEqual(['safe']);
		expect(names(routed.outputOf(NODE_NAME, FLAGGED))).toEqual(['flagged']);
		expect(hintsOf(routed)).toEqual([]);
	});

	it('without a threshold: a warning under the output', async () => {
		const run = await moderate({ routeByVerdict: true });
		expect(hintsOf(run)).toEqual([expect.stringContaining('Route by Verdict has no threshold set')]);
	});

	it('a threshold that is not a number fails the item before anything is sent', async () => {
		const run = await moderate({ routeByVerdict: true, riskThreshold: '={{ "high" }}' });
		expect(nodeError(run).message).toContain('Risk Score Threshold');
		expect(mock.service.requests).toHaveLength(0);
	});

	it('an operation’s refusal (Deferred gives no verdict) fails the item unsent; Deferred alone is fine', async () => {
		const deferred = (routeByVerdict: boolean) => mock.run(moderateUrlParameters({ mode: 'deferred', routeByVerdict }), images.slice(0, 1));
		expect(nodeError(await deferred(true)).message).toContain('Route by Verdict needs a moderation result');
		expect(mock.service.requests).toHaveLength(0);
		expect(output(await deferred(false))[0].json).toEqual({ id: expect.any(String) });
	});

	it('an operation with no refusal (Queue > Get Item) runs the item', async () => {
		const run = await mock.run({ resource: 'queue', operation: 'getItem', queueId: 'comments', itemId: UNKNOWN_ID, routeByVerdict: true });
		expect(nodeError(run).httpCode).toBe('404');
	});

	it('an operation’s own last step (Route by Decision) makes the outputs', async () => {
		const parameters = { resource: 'queue', operation: 'getItem', queueId: 'comments', itemId: UNKNOWN_ID, routeByDecision: true };
		const run = await mock.run(parameters, undefined, { onError: 'continueRegularOutput' });
		// Accepted, Rejected, Pending: the error item is Pending.
		expect(run.outputsOf(NODE_NAME).map((items) => items.length)).toEqual([0, 0, 1]);
	});
});

describe('the claims of Callback > Receive', () => {
	const SECRET = 'cb-secret/router-5f2a91';
	const delivery = (data: IDataObject | undefined): INodeExecutionData => ({
		json: { headers: { 'content-type': 'application/json' }, query: { token: SECRET }, body: data && { event: 'moderation.completed', data } },
	});
	const receive = (items: INodeExecutionData[], parameters: INodeParameters = {}, onError?: 'continueRegularOutput') =>
		runWorkflow({
			nodes: [moderationNode({ resource: 'callback', operation: 'receive', ...parameters }, { onError })],
			credentials: credentials({ callbackSecret: SECRET }),
			items,
			mode: 'webhook',
		});
	// String: toEqual would take [undefined] for [].
	const ids = (run: WorkflowRun) => output(run).map((item) => String(item.json.id));

	afterEach(() => jest.restoreAllMocks());

	it('are taken for every item before any item runs, and committed for those passed on', async () => {
		const takeAll = jest.spyOn(RunClaims.prototype, 'takeAll');
		const turn = jest.spyOn(RunClaims.prototype, 'turn');
		const [x, y] = [randomUUID(), randomUUID()];
		const first = await receive([delivery(imageResult(x)), delivery(undefined), delivery(imageResult(y))], {}, 'continueRegularOutput');
		expect(output(first).map((item) => item.json.id ?? item.json.error)).toEqual([x, 'The input item has no body', y]);
		expect(takeAll).toHaveBeenCalledTimes(1);
		const keys = takeAll.mock.calls[0][0];
		expect(keys.map((key) => typeof key)).toEqual(['string', 'undefined', 'string']);
		expect(Math.max(...takeAll.mock.invocationCallOrder)).toBeLessThan(Math.min(...turn.mock.invocationCallOrder));
		// Passed on in a run that succeeded: a delivery again is a repeat.
		expect(ids(await receive([delivery(imageResult(x))]))).toEqual([]);
	});

	it('an item that fails after its claim does not pass its completion on: a delivery again does', async () => {
		const id = randomUUID();
		const partial = await receive([delivery({ id, isSafe: true })], { fetchFullResult: false }, 'continueRegularOutput');
		expect(output(partial)[0].json.error).toContain('Fetch Full Result is off');
		expect(ids(await receive([delivery(imageResult(id))]))).toEqual([id]);
	});

	it('a run that fails frees its claims: the completion it held passes on in the next run', async () => {
		const id = randomUUID();
		const failed = await receive([delivery(imageResult(id)), delivery(undefined)]);
		expect(nodeError(failed).message).toContain('The input item has no body');
		expect(ids(await receive([delivery(imageResult(id))]))).toEqual([id]);
	});
});
