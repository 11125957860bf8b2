/**
 * A property cut by fast-check's time limit (propertySettings.ts) leaves its run going: fast-check stops
 * waiting for it. In receive.operation.properties.test.ts that run went on resetting the process state in
 * the middle of the next property's executions, so a completion Receive had passed on was forgotten and
 * passed on again ("r-3" passed on 2 times, seed 1512036422 under load). The next test must start only once
 * the cut run has ended. Receive itself is right: a process that forgets (a restart) passes on again.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { RESULT_EVENT } from '@package/nodes/ContentModeration/inbound/envelope';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { serviceAnswer } from '@test/helpers/callbackArbitraries';
import { imageResult } from '@test/helpers/callbackBodies';
import { finishCutRuns } from '@test/helpers/propertyRuns';
import { useFakeSystemClock } from '@test/helpers/fakeSystemClock';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';

const ACCESS_TOKEN = 'at-runs-7f3a91';
const SECRET = 'cb-runs-5d2e-q7x9-long';

let service: ScriptedServer;
beforeAll(async () => {
	service = await startScriptedServer((request) => serviceAnswer(request.path));
});
afterAll(async () => await service.stop());

const tracked = finishCutRuns();
const { settle } = useFakeSystemClock();

const realPause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Set by the second test once its first execution passed r-3 on; the cut run resets only then (or after 3 s). */
let firstPassedOn = false;
let cutRunReset = false;

async function receiveR3(): Promise<number> {
	const data = imageResult('r-3');
	const json = { headers: { 'content-type': 'application/json' }, params: {}, query: { token: SECRET }, body: { event: RESULT_EVENT, data } };
	const run = await settle(
		runWorkflow({
			nodes: [moderationNode({ resource: 'callback', operation: 'receive', fetchFullResult: true }, { onError: 'continueRegularOutput' })],
			credentials: { contentModerationApi: { baseUrl: service.url, accessToken: ACCESS_TOKEN, callbackSecret: SECRET } },
			items: [{ json: json as IDataObject }],
			mode: 'webhook',
		}),
	);
	expect(run.status).toBe('success');
	return run.outputOf('Content Moderation').filter((output) => output.json.event === RESULT_EVENT && output.json.error === undefined).length;
}

test('a property cut by its time limit (its run still going, as under load)', async () => {
	const property = fc.asyncProperty(
		fc.constant(0),
		tracked(async () => {
			// A run that outlasts the limit, then resets the process state as each property run does.
			for (let waited = 0; !firstPassedOn && waited < 3_000; waited += 10) await realPause(10);
			resetProcessState();
			cutRunReset = true;
		}),
	);
	await expect(fc.assert(property, { numRuns: 1, interruptAfterTimeLimit: 50, markInterruptAsFailure: true })).rejects.toThrow(
		/interrupted/,
	);
});

test('the next test: a completion passed on in one execution is a repeat in the next', async () => {
	resetProcessState();
	const first = await receiveR3();
	firstPassedOn = true;
	for (let waited = 0; !cutRunReset && waited < 3_000; waited += 10) await realPause(10);
	const second = await receiveR3();
	expect([first, second]).toEqual([1, 0]);
});
