/**
 * Callback > Receive in executions whose items are the same completions in another order, through n8n-core's
 * engine: every execution ends and each completion is passed on exactly once (the run's claims are taken
 * in one order, inbound/runClaims.ts).
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { imageResult } from '@test/helpers/callbackBodies';
import { moderationNode, runWorkflow, type WorkflowRun } from '@test/helpers/engine';
import { output, SECRET_TOKEN } from '@test/helpers/nodeRun';

import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const SECRET = 'cb-secret/order-41c9a7';
/** Far beyond what these runs take (no request leaves them: the callbacks carry full results), also on a loaded machine. */
const ENDS_WITHIN_MS = 20_000;

const webhookItem = (id: string) => ({
	json: { headers: { 'content-type': 'application/json' }, params: {}, query: { token: SECRET }, body: { event: 'moderation.completed', data: imageResult(id) } } as IDataObject,
});

/** One published execution (mode webhook) of Receive over these completions; `fixed`: Fixed Concurrency 1, else adaptive. */
async function execution(ids: string[], fixed: boolean): Promise<WorkflowRun> {
	return await runWorkflow({
		nodes: [moderationNode({ resource: 'callback', operation: 'receive', options: fixed ? { concurrency: 1 } : {} })],
		credentials: { contentModerationApi: { baseUrl: 'http://127.0.0.1:9', accessToken: SECRET_TOKEN, callbackSecret: SECRET } },
		items: ids.map(webhookItem),
		mode: 'webhook',
	});
}

/** The executions, each as it ended, or 'still running' once ENDS_WITHIN_MS passed. */
async function ended(runs: Array<Promise<WorkflowRun>>): Promise<Array<WorkflowRun | 'still running'>> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), ENDS_WITHIN_MS)));
	try {
		return await Promise.all(runs.map(async (run) => await Promise.race([run, timeout])));
	} finally {
		clearTimeout(timer);
	}
}

function passedOn(runs: Array<WorkflowRun | 'still running'>): string[] {
	return runs.flatMap((run) => (run === 'still running' ? [] : output(run).map((item) => String(item.json.id))));
}

beforeEach(() => resetProcessState());

describe.each([
	['Fixed Concurrency 1', true],
	['adaptive concurrency', false],
])('Receive at %s', (_, fixed) => {
	test('two executions with the same two completions in opposite order both end, each completion passed on once', async () => {
		const [x, y] = [randomUUID(), randomUUID()];
		const runs = await ended([execution([x, y], fixed), execution([y, x], fixed)]);
		expect(runs.map((run) => (run === 'still running' ? run : run.status))).toEqual(['success', 'success']);
		expect(passedOn(runs).sort()).toEqual([x, y].sort());
	});

	test('50 completions per execution, in opposite order: both end, each passed on once', async () => {
		const ids = Array.from({ length: 50 }, () => randomUUID());
		const runs = await ended([execution(ids, fixed), execution([...ids].reverse(), fixed)]);
		expect(runs.map((run) => (run === 'still running' ? run : run.status))).toEqual(['success', 'success']);
		expect(passedOn(runs).sort()).toEqual([...ids].sort());
	});
});

test('a third execution carrying one of the completions alone ends too, passing nothing on twice', async () => {
	const [x, y] = [randomUUID(), randomUUID()];
	const runs = await ended([execution([x, y], true), execution([y, x], true), execution([x], true)]);
	expect(runs.map((run) => (run === 'still running' ? run : run.status))).toEqual(['success', 'success', 'success']);
	expect(passedOn(runs).sort()).toEqual([x, y].sort());
});
