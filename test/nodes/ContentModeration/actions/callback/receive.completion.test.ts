/**
 * Callback > Receive and the callbacks' completion rule (inbound/completion.ts), through n8n-core's engine
 * in production executions against the mock service: a body that is not a complete result is read back,
 * and still incomplete fails its item, passes nothing on and is not remembered, so the finished delivery
 * passes the verdict on.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startMockService, type MockService } from '@dev/mock/server';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { imageResult } from '@test/helpers/callbackBodies';
import { finishedResult, heldSubmission } from '@test/helpers/heldResults';
import { output } from '@test/helpers/nodeRun';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const SECRET = 'cb-secret/receive-complete-7a1';

let mock: MockService;
beforeAll(async () => {
	mock = await startMockService({ processMs: 20 });
});
afterAll(async () => await mock.stop());
beforeEach(() => resetProcessState());

const webhookItem = (body: unknown) => ({
	json: { headers: { 'content-type': 'application/json' }, params: {}, query: { token: SECRET }, body } as IDataObject,
});

async function receive(body: unknown, parameters: INodeParameters = {}) {
	const run = await runWorkflow({
		nodes: [moderationNode({ resource: 'callback', operation: 'receive', ...parameters }, { onError: 'continueRegularOutput' })],
		credentials: { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token, callbackSecret: SECRET } },
		items: [webhookItem(body)],
		mode: 'webhook',
	});
	expect(run.status).toBe('success');
	return output(run);
}

test('every result field but isSafe null and status processing: the item fails, nothing remembered; the finished delivery passes the verdict on once', async () => {
	const { id, release } = await heldSubmission(mock, 'receive-held');
	try {
		const unfinished = { event: 'moderation.completed', data: { ...imageResult(id), isSafe: null, status: 'processing' } };
		const [failed] = await receive(unfinished);
		expect(failed.json.error).toMatch(`The service has not finished moderation ${id} yet`);
		expect(failed.json.isSafe).toBeUndefined();

		release();
		const finished = await finishedResult(mock, id);
		const [passed] = await receive({ event: 'moderation.completed', data: finished });
		expect(passed.json).toEqual({ ...finished, event: 'moderation.completed' });
		// Passed on once: a repeat passes nothing on.
		expect(await receive({ event: 'moderation.completed', data: finished })).toEqual([]);
	} finally {
		release();
	}
});

test('an unfinished callback whose read answers 404 (not stored yet) fails its item, nothing remembered; the finished delivery passes its own verdict on', async () => {
	const id = '00000000-0000-4000-8000-00000000f404';
	const [failed] = await receive({ event: 'moderation.completed', data: { id, isSafe: true, status: 'processing' } });
	expect(failed.json.error).toMatch(/404/);
	expect(failed.json.isSafe).toBeUndefined();

	const flagged = imageResult(id, { isSafe: false, suggestedActions: { reject: true, review: false } });
	const [passed] = await receive({ event: 'moderation.completed', data: flagged });
	expect(passed.json).toEqual({ ...flagged, event: 'moderation.completed' });
});

test('Fetch Full Result off: a slim body fails its item, not passed on as it came', async () => {
	mock.reset();
	const [failed] = await receive({ event: 'moderation.completed', data: { id: 'job-slim-1', isSafe: true } }, { fetchFullResult: false });
	expect(failed.json.error).toBe(
		'The callback carries no complete result (no suggestedActions.reject and .review in the callback), and Fetch Full Result is off',
	);
	// A delivery of it again cannot help: the hint does not say it would.
	expect((failed.json.details as IDataObject).description).not.toMatch(/delivery of the callback again/);
	expect(mock.requests.filter((request) => request.method === 'GET')).toHaveLength(0);
});
