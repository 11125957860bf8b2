/**
 * Properties of Callback > Receive over what n8n's Webhook node hands it (body, content type, query,
 * headers), through n8n-core's engine in production executions (On Error: Continue, so each item gives a
 * result, an error item, or nothing as a repeat), beside the trigger's webhook() with the same call: Receive
 * refuses what the trigger refuses. Reads go to a scripted service (test/helpers/callbackArbitraries.ts);
 * time on a fake clock. A failure prints its seed and path.
 */
import fc from 'fast-check';
import { test as property } from '@fast-check/jest';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MAX_DEPTH, nestedDeeperThan } from '@package/nodes/ContentModeration/helpers/json';
import { isCompleteResult } from '@package/nodes/ContentModeration/verdict/rules';
import { RESULT_EVENT } from '@package/nodes/ContentModeration/inbound/envelope';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { callbackText, contentType, SERVICE_IDS, serviceAnswer, tokenCase } from '@test/helpers/callbackArbitraries';
import { imageResult } from '@test/helpers/callbackBodies';
import { useFakeSystemClock } from '@test/helpers/fakeSystemClock';
import { bodyAsN8nParses, fakeRequest, fakeResponse, triggerFor } from '@test/helpers/fuzzTrigger';
import { findLeaks } from '@test/helpers/leaks';
import { finishCutRuns } from '@test/helpers/propertyRuns';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';

const ACCESS_TOKEN = 'at-recv"7f3a/+&=Kx91';
const SECRET = 'cb-recv"é/+&= q-5d2e';
/** Engine runs cost tens of milliseconds each: fewer runs than the default, more with FC_NUM_RUNS. */
const RUNS = { numRuns: Number(process.env.FC_NUM_RUNS) || 25 };

let service: ScriptedServer;
beforeAll(async () => {
	service = await startScriptedServer((request) => serviceAnswer(request.path));
});
afterAll(async () => await service.stop());

// A run cut by the time limit goes on: it would reset the state in the next property's executions.
const tracked = finishCutRuns();
// The secret cache's and the read-back's time.
const { settle } = useFakeSystemClock();

async function receive(items: INodeExecutionData[]) {
	const run = await settle(
		runWorkflow({
			nodes: [moderationNode({ resource: 'callback', operation: 'receive', fetchFullResult: true }, { onError: 'continueRegularOutput' })],
			credentials: { contentModerationApi: { baseUrl: service.url, accessToken: ACCESS_TOKEN, callbackSecret: SECRET } },
			items,
			mode: 'webhook',
		}),
	);
	expect(run.status).toBe('success');
	return run.outputOf('Content Moderation');
}

/** n8n's Webhook node's item for a call: the parsed body, or the raw text when n8n did not parse it. */
function webhookItem(text: string, type: string, token: { query: IDataObject; headers: IDataObject }) {
	const parsed = bodyAsN8nParses(text, type);
	const req = fakeRequest(text, type, token);
	if (parsed === undefined || req === undefined) return undefined;
	return { json: { headers: req.headers, params: {}, query: token.query, body: parsed.body ?? text } as IDataObject, req };
}

const call = fc.tuple(callbackText, contentType, tokenCase(SECRET));

property.prop([fc.array(call, { minLength: 1, maxLength: 6 })], RUNS)(
	'refuses what the trigger refuses and a wrong token; no throw, no item lost or twice, no incomplete result passed on, no leak, no reshaped item',
	tracked(async (calls) => {
		resetProcessState();
		const trigger = await triggerFor(service.url, ACCESS_TOKEN, SECRET, { eventTypes: 'any', events: 'all', fetchFullResult: false });
		const cases: Array<{ item: INodeExecutionData; valid: boolean; triggerRefused400: boolean }> = [];
		for (const [text, type, token] of calls) {
			const entry = webhookItem(text, type, token);
			if (entry === undefined) continue;
			const res = fakeResponse();
			// From a cold secret cache the trigger decides a call by one read, at once.
			resetProcessState();
			await settle(trigger(entry.req, res).catch(() => res.writeHead(500)));
			cases.push({ item: { json: entry.json }, valid: token.valid, triggerRefused400: res.statusCode === 400 });
		}
		if (cases.length === 0) return;
		resetProcessState();
		const outputs = await receive(cases.map((entry) => entry.item));

		const paired = outputs.map((output) => (output.pairedItem as { item: number }).item);
		expect(new Set(paired).size).toBe(paired.length);
		for (const output of outputs) {
			const entry = cases[(output.pairedItem as { item: number }).item];
			const { json } = output;
			const refused = typeof json.error === 'string' && json.event === undefined;
			if (!entry.valid || entry.triggerRefused400) expect(refused).toBe(true);
			expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
			expect(nestedDeeperThan(json, MAX_DEPTH + 3)).toBe(false);
			expect(findLeaks(json, [SECRET, ACCESS_TOKEN])).toEqual([]);
			if (refused) expect(JSON.stringify(json).length).toBeLessThanOrEqual(2048);
			const result = !refused && json.event === RESULT_EVENT && typeof json.accepted !== 'boolean' && json.moderation === undefined;
			if (result) expect([isCompleteResult(json), json.error]).toEqual([true, undefined]);
		}
		// Every input item with the right token and a body the trigger takes gives one output, or none as a repeat.
		expect(outputs.length).toBeLessThanOrEqual(cases.length);
		expect(({} as IDataObject).polluted).toBeUndefined();
	}),
);

const delivery = fc.tuple(
	fc.constantFrom(...SERVICE_IDS.ready, ...SERVICE_IDS.processing),
	fc.constantFrom('full', 'idOnly', 'unfinished'),
);

property.prop([fc.array(fc.array(delivery, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 })], RUNS)(
	'one pass-on per completion over executions, whatever the order and repeats; an unfinished one never passes on',
	tracked(async (executions) => {
		resetProcessState();
		const passed = new Map<string, number>();
		for (const deliveries of executions) {
			const items = deliveries.map(([id, form]) => {
				const data = form === 'full' ? imageResult(id) : form === 'unfinished' ? { ...imageResult(id), isSafe: null, status: 'processing' } : { id };
				const json = { headers: { 'content-type': 'application/json' }, params: {}, query: { token: SECRET }, body: { event: RESULT_EVENT, data } };
				return { json: json as IDataObject };
			});
			for (const output of await receive(items)) {
				if (output.json.event !== RESULT_EVENT || output.json.error !== undefined) continue;
				passed.set(String(output.json.id), (passed.get(String(output.json.id)) ?? 0) + 1);
			}
		}
		const all = executions.flat();
		for (const id of new Set(all.map(([id]) => id))) {
			const ready = (SERVICE_IDS.ready as readonly string[]).includes(id);
			const fullSent = all.some(([sent, form]) => sent === id && form === 'full');
			expect([id, passed.get(id) ?? 0]).toEqual([id, ready || fullSent ? 1 : 0]);
		}
	}),
);
