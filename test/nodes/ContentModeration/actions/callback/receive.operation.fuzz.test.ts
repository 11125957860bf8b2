/**
 * Callback > Receive under hostile callbacks, through n8n-core's engine (On Error: Continue, so each item
 * gives a result or an error item), and beside it the trigger's webhook() with the same body and token:
 * Receive refuses what the trigger refuses, by the same rules. Seeded (test/helpers/fuzz.ts).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MAX_DEPTH, nestedDeeperThan } from '@package/nodes/ContentModeration/helpers/json';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { FUZZ_SEED, fuzzCalls, hostileBody, prng, tokenCase, Violations } from '@test/helpers/fuzz';
import { bodyAsN8nParses, fakeRequest, fakeResponse, triggerFor } from '@test/helpers/fuzzTrigger';
import { findLeaks } from '@test/helpers/leaks';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const ACCESS_TOKEN = 'at-recv"7f3a/+&=Kx91';
const SECRET = 'cb-recv"é/+&= q-5d2e';
const ITEMS_PER_RUN = 50;
const MAX_MESSAGE_CHARS = 1024;
/** Receive's own refusals (token, body): anything else on an error item is a crash. */
const OWN_ERRORS = /^(Callback refused: |Not a moderation callback: |The input item has no body)/;

let service: ScriptedServer;
beforeAll(async () => {
	service = await startScriptedServer((request) => ({
		status: 200,
		body: { isSafe: true, summary: 'ok', confidence: 0.9, description: 'd', riskScores: {}, topics: [], nsfwCategories: [], suggestedActions: {}, hash: 'h', id: request.path.split('/').pop() },
	}));
});
afterAll(async () => await service.stop());

interface Case {
	seed: number;
	item: INodeExecutionData;
	valid: boolean;
	/** The trigger, same body and token: 'refused' (4xx), 'started', or 'acknowledged' (nothing started). */
	trigger: 'refused' | 'started' | 'acknowledged';
}

async function cases(count: number, offset: number): Promise<Case[]> {
	const trigger = await triggerFor(service.url, ACCESS_TOKEN, SECRET, { eventTypes: 'any', events: 'all', fetchFullResult: false });
	const out: Case[] = [];
	for (let call = 0; out.length < count; call++) {
		const seed = FUZZ_SEED * 1_000_003 + offset + call;
		const random = prng(seed);
		const { text, contentType } = hostileBody(random, SECRET);
		const token = tokenCase(random, SECRET);
		// From a cold secret cache the trigger refuses a wrong token at once (warm, it waits for the next read).
		if (!token.valid) resetProcessState();
		const req = fakeRequest(text, contentType, token);
		const parsed = bodyAsN8nParses(text, contentType);
		if (req === undefined || parsed === undefined) continue;
		const res = fakeResponse();
		// A throw is n8n's 500: refused (the trigger's own fuzz test reports it).
		const result = await trigger(req, res).catch(() => res.writeHead(500) && undefined);
		if (!res.writableEnded) res.end();
		const outcome = res.statusCode >= 400 ? 'refused' : result?.workflowData ? 'started' : 'acknowledged';
		// n8n's Webhook node: the parsed body, or the raw text when n8n did not parse it.
		const body = parsed.body ?? text;
		const json = { headers: req.headers, params: {}, query: token.query, body, webhookUrl: 'http://n8n.test/webhook/x' } as IDataObject;
		out.push({ seed, item: { json }, valid: token.valid, trigger: outcome });
	}
	return out;
}

describe('Callback > Receive under hostile callbacks', () => {
	it('refuses what the trigger refuses; no crash, no leak, no prototype change, no sender error posing as ours, reads only /image/{id} or /text/{id}', async () => {
		const violations = new Violations();
		const total = fuzzCalls(1200);
		const tally = { items: 0, results: 0, refused: 0, reads: 0 };
		for (let offset = 0; offset < total; offset += ITEMS_PER_RUN) {
			const batch = await cases(Math.min(ITEMS_PER_RUN, total - offset), 9_000_000 + offset * 10);
			const readsBefore = service.requests.length;
			const run = await runWorkflow({
				nodes: [moderationNode({ resource: 'callback', operation: 'receive', fetchFullResult: true }, { onError: 'continueRegularOutput' })],
				credentials: { contentModerationApi: { baseUrl: service.url, accessToken: ACCESS_TOKEN, callbackSecret: SECRET } },
				items: batch.map((entry) => entry.item),
			});
			violations.check(run.status === 'success', `run ${run.status}: ${run.error?.message}`, batch[0].seed);
			const outputs = run.status === 'success' ? run.outputOf('Content Moderation') : [];
			for (const output of outputs) {
				const entry = batch[(output.pairedItem as { item: number }).item];
				const json = output.json;
				tally.items++;
				const refused = typeof json.error === 'string' && json.event === undefined;
				if (refused) tally.refused++;
				else tally.results++;
				violations.check(!refused || OWN_ERRORS.test(json.error as string), `crash: ${String(json.error).slice(0, 80)}`, entry.seed);
				violations.check(entry.valid || refused, 'a wrong token was not refused', entry.seed);
				if (entry.valid && entry.trigger === 'refused') violations.check(refused, 'passed what the trigger refuses', entry.seed);
				if (entry.valid && entry.trigger === 'started') violations.check(!refused, `refused what the trigger starts: ${String(json.error)}`, entry.seed);
				violations.check(JSON.stringify(json).length <= MAX_MESSAGE_CHARS || !refused, 'a long error message', entry.seed);
				violations.check(Object.getPrototypeOf(json) === Object.prototype, 'the item prototype changed', entry.seed);
				violations.check(refused || (typeof json.event === 'string' && json.error === undefined), 'a result item carries an error field', entry.seed);
				const tooDeep = nestedDeeperThan(json, MAX_DEPTH + 3);
				violations.check(!tooDeep, 'an item nested deeper than the limit', entry.seed);
				violations.check(tooDeep || findLeaks(json, [SECRET, ACCESS_TOKEN]).length === 0, 'leak', entry.seed);
			}
			for (const read of service.requests.slice(readsBefore)) {
				tally.reads++;
				const segment = /^\/(image|text)\/([^/?#]+)$/.exec(read.path)?.[2];
				violations.check(segment !== undefined && !['.', '..'].includes(decodeURIComponent(segment)), `read ${read.path}`, batch[0].seed);
			}
		}
		if (process.env.FUZZ_REPORT) console.log(`receive: ${JSON.stringify(tally)}`);
		expect(violations.found).toEqual([]);
		expect(tally.results).toBeGreaterThan(total / 20);
		expect(tally.refused).toBeGreaterThan(total / 4);
	}, 120_000);
});
