/**
 * Wait for Callback and the callbacks' completion rule (inbound/completion.ts), through n8n-core's engine
 * (test/helpers/engine/waiting.ts) against a scripted service whose results a test makes ready: what a
 * callback's body may stand for, how often a refused item is read, when the run does not wait at all, the
 * 1.x resumer, other events on an item's URL, and when n8n answers the resuming callback.
 */
import { setTimeout as delay } from 'node:timers/promises';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { connect, moderationNode, startWaitingHarness, type WaitingHarness } from '@test/helpers/engine';
import { imageResult } from '@test/helpers/callbackBodies';
import { testNodeDescription } from '@test/helpers/fixtures';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';
import { post, urlItems, waitParameters, NODE } from '@test/helpers/waitingImages';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const URL_A = 'https://images.test/a.jpg';
const URL_B = 'https://images.test/b.jpg';
const URL_C = 'https://images.test/c.jpg';

let harness: WaitingHarness;
let service: ScriptedServer;
/** Per moderation id (m-0, m-1, ... in submission order): its result once ready; absent: still processing. */
let ready: Map<string, IDataObject>;
/** What POST /image answers: an id only (deferred, the default), or a result given at once. */
let submitAnswer: (id: string) => IDataObject;

beforeAll(async () => {
	harness = await startWaitingHarness();
	service = await startScriptedServer((request) => {
		if (request.method === 'POST') {
			const id = `m-${service.requests.filter((r) => r.method === 'POST').length - 1}`;
			return { status: 200, body: submitAnswer(id) };
		}
		const id = request.path.split('/').pop() ?? '';
		const result = ready.get(id);
		return { status: 200, body: result ?? { id, status: 'processing' } };
	});
});
afterAll(async () => {
	await service.stop();
	await harness.stop();
});
beforeEach(() => {
	resetProcessState();
	ready = new Map();
	submitAnswer = (id) => ({ id });
	service.requests.length = 0;
});

const credentials = () => ({ contentModerationApi: { baseUrl: service.url, accessToken: 'token-completion-1' } });
const callbackUrls = () =>
	service.requests
		.filter((r) => r.method === 'POST')
		.map((r) => String((r.body as { options: { callbackUrl: string } }).options.callbackUrl));
const readsOf = (id: string) => service.requests.filter((r) => r.method === 'GET' && r.path === `/image/${id}`).length;
const completed = (id: string, extra: IDataObject = {}) => ({ event: 'moderation.completed', data: imageResult(id, extra) });

async function startWaiting(urls: string[], extra: INodeParameters = {}, resumeTokens = true) {
	const execution = await harness.start({
		nodes: [moderationNode(waitParameters(extra))],
		credentials: credentials(),
		items: urlItems(urls),
		resumeTokens,
	});
	await execution.waiting(10_000);
	return execution;
}

test('a slim callback {id, isSafe: true} is not the result: it is read, and Route by Verdict judges what the service holds', async () => {
	const execution = await startWaiting([URL_A], { routeByVerdict: true, riskThreshold: 50 });
	// The service's result: marked safe, but its overall risk reaches the threshold.
	ready.set('m-0', imageResult('m-0', { isSafe: true, riskScores: { overall: 80 } }));

	const answer = await post(callbackUrls()[0], { event: 'moderation.completed', data: { id: 'm-0', isSafe: true } });

	expect(answer).toMatchObject({ status: 200, body: { resumed: true } });
	expect(readsOf('m-0')).toBe(1);
	const run = await execution.finished(10_000);
	// Outputs: Timed Out, Safe, Flagged.
	const [timedOut, safe, flagged] = run.outputsOf(NODE);
	expect([timedOut.length, safe.length, flagged.length]).toEqual([0, 0, 1]);
	expect(JSON.stringify(flagged[0].json)).toContain('riskScores.overall 80 >= threshold 50');
});

test.each([
	['status pending', { status: 'pending' }],
	['no nsfwCategories', { nsfwCategories: undefined }],
])('a callback body with everything but %s is read, not kept', async (_name, change) => {
	const execution = await startWaiting([URL_A]);
	const body = { ...imageResult('m-0'), ...change } as IDataObject;
	// Not ready at the service: the callback is asked to come again.
	expect((await post(callbackUrls()[0], { event: 'moderation.completed', data: body })).status).toBe(503);
	expect(readsOf('m-0')).toBe(1);
	expect(execution.status).toBe('waiting');
	ready.set('m-0', imageResult('m-0', { isSafe: false }));
	expect(await post(callbackUrls()[0], { event: 'moderation.completed', data: body })).toMatchObject({ status: 200, body: { resumed: true } });
	const run = await execution.finished(10_000);
	expect(run.outputOf(NODE)[0].json).toMatchObject({ id: 'm-0', isSafe: false });
});

test('an item whose own callback was refused (not ready) is read at most once more by later callbacks of other items', async () => {
	const execution = await startWaiting([URL_A, URL_B, URL_C]);
	const [a, b, c] = callbackUrls();

	expect((await post(a, { event: 'moderation.completed', data: { id: 'm-0' } })).status).toBe(503);
	expect(readsOf('m-0')).toBe(1);
	// Other items' callbacks carry their results; item 0 stays unfinished at the service.
	expect(await post(b, completed('m-1'))).toMatchObject({ status: 200, body: { resumed: false, waitingFor: 'm-0' } });
	expect(await post(c, completed('m-2'))).toMatchObject({ status: 200, body: { resumed: false, waitingFor: 'm-0' } });
	expect(await post(b, completed('m-1'))).toMatchObject({ status: 200, body: { resumed: false } });
	expect(readsOf('m-0')).toBe(2);
	expect(readsOf('m-1') + readsOf('m-2')).toBe(0);

	// Its own callback again, now ready: read, and the run resumes.
	ready.set('m-0', imageResult('m-0'));
	expect(await post(a, { event: 'moderation.completed', data: { id: 'm-0' } })).toMatchObject({ status: 200, body: { resumed: true } });
	expect((await execution.finished(10_000)).outputOf(NODE).map((item) => item.json.id)).toEqual(['m-0', 'm-1', 'm-2']);
});

test('every submission answered with a complete result: nothing to wait for, the node outputs at once', async () => {
	submitAnswer = (id) => imageResult(id);
	const execution = await harness.start({
		nodes: [moderationNode(waitParameters())],
		credentials: credentials(),
		items: urlItems([URL_A, URL_B]),
	});
	const run = await execution.finished(10_000);
	expect(execution.resumes).toBe(0);
	expect(execution.waitTill).toBeUndefined();
	expect(run.outputOf(NODE).map((item) => [item.json.id, item.pairedItem])).toEqual([
		['m-0', { item: 0 }],
		['m-1', { item: 1 }],
	]);
});

test('a submission answered with a verdict but not a complete result is waited for, not taken', async () => {
	submitAnswer = (id) => ({ id, isSafe: true });
	const execution = await startWaiting([URL_A]);
	expect(execution.status).toBe('waiting');
	expect(await post(callbackUrls()[0], completed('m-0', { isSafe: false }))).toMatchObject({ status: 200, body: { resumed: true } });
	expect((await execution.finished(10_000)).outputOf(NODE)[0].json).toMatchObject({ id: 'm-0', isSafe: false });
});

test('n8n 1.x: the resuming item\'s callback is answered 503 while another item\'s result is not ready, so the service comes again', async () => {
	const execution = await startWaiting([URL_A, URL_B], {}, false);
	const [a, b] = callbackUrls();

	// Item 1 is the last waiting item: its callback alone may resume. Item 0 is not ready yet.
	const early = await post(b, completed('m-1'));
	expect(early.status).toBe(503);
	expect(JSON.stringify(early.body)).toContain('Other results are not ready yet');
	expect(readsOf('m-0')).toBe(1);
	expect(execution.status).toBe('waiting');

	expect(await post(a, completed('m-0'))).toMatchObject({ status: 200, body: { resumed: false, waitingFor: 'the callback of item 1' } });
	expect(await post(b, completed('m-1'))).toMatchObject({ status: 200, body: { resumed: true } });
	expect((await execution.finished(10_000)).outputOf(NODE).map((item) => item.json.id)).toEqual(['m-0', 'm-1']);
});

test.each([
	['a review decision', { event: 'queue.review.completed', data: { id: 'q-1', status: 'accepted', accepted: true } }],
	['an event the package does not know', { event: 'moderation.failed', data: { id: 'm-0' } }],
	['an event the package does not know, without data', { event: 'moderation.failed' }],
	['a review decision without data', { event: 'queue.review.completed', data: 'accepted' }],
])('%s on an item\'s URL is refused 422, nothing read, the run keeps waiting', async (_name, body) => {
	const execution = await startWaiting([URL_A]);
	const answer = await post(callbackUrls()[0], body);
	expect(answer).toEqual({ status: 422, body: { received: false, error: { status: 422, message: 'This URL takes only moderation.completed callbacks' } } });
	expect(readsOf('m-0')).toBe(0);
	expect(execution.status).toBe('waiting');
});

describe('the resuming callback is answered before the rest of the workflow runs', () => {
	let release: () => void = () => {};
	let running = false;
	const slowNode: INodeType = {
		description: testNodeDescription('Slow', 'Holds the run until the test releases it'),
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			running = true;
			await new Promise<void>((resolve) => (release = resolve));
			return [this.getInputData()];
		},
	};

	test('responseMode onReceived: the service has its 200 while the next node still runs', async () => {
		const connections = {};
		connect(connections, 'Start', NODE);
		connect(connections, NODE, 'Slow');
		const execution = await harness.start({
			nodes: [moderationNode(waitParameters()), { name: 'Slow', type: 'harness.slow', parameters: {} }],
			connections,
			nodeTypes: { 'harness.slow': slowNode },
			credentials: credentials(),
			items: urlItems([URL_A]),
		});
		await execution.waiting(10_000);
		try {
			const answer = await Promise.race([post(callbackUrls()[0], completed('m-0')), delay(5_000).then(() => 'no answer in 5 s')]);
			expect(answer).toMatchObject({ status: 200, body: { resumed: true } });
			expect(running).toBe(true);
		} finally {
			release();
		}
		expect((await execution.finished(10_000)).status).toBe('success');
	});
});
