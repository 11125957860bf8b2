/**
 * Wait for Callback's webhook for texts (index.ts picks GET /text/{id} and the text verdict): Text >
 * Moderate v3, Mode "Wait for Callback", through n8n-core's real engine: the mock sends its
 * `{event, data}` callbacks to the resume URLs; a text is read back from GET /text/{id} when needed.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { PROFANE_TEXT, REVIEW_TEXT, SAFE_TEXT } from '@dev/mock/fixtures';
import { startMockService, type MockService } from '@dev/mock/server';
import { moderationNode, startWaitingHarness, type WaitingHarness } from '@test/helpers/engine';
import { postCallback } from '@test/helpers/webhook-server';
import { startScriptedServer } from '@test/helpers/scripted-server';
import { waitFor } from '@dev/wait';
import { textResult } from '@test/helpers/callbackBodies';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const NODE = 'Content Moderation';

let mock: MockService;
let harness: WaitingHarness;

beforeAll(async () => {
	mock = await startMockService({ callbackRetries: 8, callbackBackoffMs: 100 });
	harness = await startWaitingHarness();
});

afterAll(async () => {
	await mock?.stop();
	await harness?.stop();
});

beforeEach(() => {
	resetProcessState();
	mock.configure({ processMs: 30, processJitterMs: 0 });
	mock.reset();
});

const parameters = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'text',
	operation: 'moderate',
	text: '={{ $json.text }}',
	mode: 'waitCallback',
	waitTimeout: 600,
	...extra,
});

const items = (texts: string[]): INodeExecutionData[] => texts.map((text, index) => ({ json: { name: `item-${index}`, text } }));

async function start(extra: INodeParameters, texts: string[]) {
	return await harness.start({
		nodes: [moderationNode(parameters(extra))],
		credentials: { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } },
		items: items(texts),
	});
}

const textPosts = () => mock.requests.filter((r) => r.method === 'POST' && r.path === '/text');

describe('Text > Moderate v3, Wait for Callback', () => {
	it('submits each text once with its resume URL (defer), waits, and the {event, data} callbacks resume it once, routed', async () => {
		const texts = [SAFE_TEXT, PROFANE_TEXT, REVIEW_TEXT];
		const execution = await start({ routeByVerdict: true, reviewOutput: true }, texts);
		const run = await execution.finished(30_000);
		expect(run.status).toBe('success');
		expect(execution.resumes).toBe(1);
		expect(execution.webhookThrew).toBe(false);

		expect(textPosts()).toHaveLength(3);
		for (const post of textPosts()) {
			const options = (post.body as { options: { callbackUrl: string; defer: boolean } }).options;
			expect(options.defer).toBe(true);
			expect(new URL(options.callbackUrl).pathname).toBe(`/webhook-waiting/${execution.id}/callback`);
		}
		// The service sent its envelopes (moderation.completed), as the vendor documents them.
		// An attempt is recorded once answered, and the resuming one is answered as the execution resumes.
		await waitFor('a recorded callback', () => (mock.callbacks.length > 0 ? true : undefined), 10_000);
		expect(new Set(mock.callbacks.map((c) => c.event))).toEqual(new Set(['moderation.completed']));
		expect(mock.requests.some((r) => r.path.startsWith('/queues'))).toBe(false);

		// Outputs: Timed Out, Safe, Flagged, Review.
		const outputs = run.outputsOf(NODE);
		expect(outputs[0]).toEqual([]);
		expect(outputs.slice(1).map((out) => out.map((item) => item.json.name))).toEqual([['item-0'], ['item-1'], ['item-2']]);
		expect((outputs[2][0].json.moderation as { content: string }).content).toBe(PROFANE_TEXT);
	});

	it('a callback without the result reads the text back from GET /text/{id}; another event is refused (422)', async () => {
		// A service that only acknowledges (this test posts the callbacks itself).
		const id = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
		const service = await startScriptedServer((request) =>
			request.method === 'POST'
				? { status: 200, body: { id } }
				: { status: 200, body: textResult(id, { isSafe: true, content: SAFE_TEXT, filteredContent: SAFE_TEXT }) },
		);
		try {
			const execution = await harness.start({
				nodes: [moderationNode(parameters())],
				credentials: { contentModerationApi: { baseUrl: service.url, accessToken: 'token-4411' } },
				items: items([SAFE_TEXT]),
			});
			await waitFor('the execution to wait', () => (execution.status === 'waiting' ? true : undefined), 10_000);
			const url = String((service.requests[0].body as { options: { callbackUrl: string } }).options.callbackUrl);
			const other = await postCallback(url, { event: 'queue.review.completed', data: { id: 'x', status: 'accepted' } });
			expect(other).toMatchObject({ status: 422, body: { received: false } });
			expect(service.requests).toHaveLength(1);

			const answer = await postCallback(url, { event: 'moderation.completed', data: { id } });
			expect(answer.status).toBe(200);
			const run = await execution.finished(30_000);
			expect(run.status).toBe('success');
			expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /text', `GET /text/${id}`]);
			expect(run.outputsOf(NODE)[0][0].json).toMatchObject({ id, isSafe: true, content: SAFE_TEXT });
		} finally {
			await service.stop();
		}
	});
});
