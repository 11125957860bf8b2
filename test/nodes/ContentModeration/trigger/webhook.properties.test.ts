/**
 * Properties of the trigger's webhook() over what a caller can send (body, content type, query, headers),
 * in process: n8n-core's real WebhookContext, the full-result read going to a scripted service that records
 * every path (test/helpers/callbackArbitraries.ts), time on a fake clock. A failure prints its seed and path.
 */
import fc from 'fast-check';
import { test as property } from '@fast-check/jest';
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import { MAX_DEPTH, nestedDeeperThan } from '@package/nodes/ContentModeration/helpers/json';
import { isCompleteResult } from '@package/nodes/ContentModeration/verdict/rules';
import { RESULT_EVENT } from '@package/nodes/ContentModeration/inbound/envelope';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { callbackText, contentType, SERVICE_IDS, serviceAnswer, tokenCase } from '@test/helpers/callbackArbitraries';
import { imageResult } from '@test/helpers/callbackBodies';
import { flush } from '@test/helpers/fakeClock';
import { useFakeSystemClock } from '@test/helpers/fakeSystemClock';
import { fakeRequest, fakeResponse, triggerFor } from '@test/helpers/fuzzTrigger';
import { findLeaks } from '@test/helpers/leaks';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';

const ACCESS_TOKEN = 'at-prop"7f3a/+&=Kx91';
const CALLBACK_SECRET = 'cb-prop"é/+&= q-5d2e';
const READ_PATH = /^\/(image|text)\/([^/?#]+)$/;
const PARAMETERS = { eventTypes: 'any', events: 'all', fetchFullResult: true, options: { includeRequest: true } };

let service: ScriptedServer;
beforeAll(async () => {
	service = await startScriptedServer((request) => serviceAnswer(request.path));
});
afterAll(async () => await service.stop());

// The secret cache's and the read-back's time.
const { settle } = useFakeSystemClock();

type Run = Awaited<ReturnType<typeof triggerFor>>;

/** One call: its answer status, the items it started, and the answer's text. */
async function deliver(run: Run, text: string, type: string, token: { query: IDataObject; headers: IDataObject }) {
	const req = fakeRequest(text, type, token);
	if (req === undefined) return undefined; // n8n refuses a malformed JSON body itself (422)
	const res = fakeResponse();
	const result: IWebhookResponseData = await settle(run(req, res));
	const refused = res.writableEnded && res.statusCode >= 400;
	const answer = res.writableEnded ? res.text : JSON.stringify(result.webhookResponse ?? '');
	// n8n answers once the execution exists: the trigger then counts the completion as started.
	if (!res.writableEnded) res.end();
	await flush();
	return { status: res.statusCode, refused, items: result.workflowData?.[0] ?? [], answer };
}

/** What the first property's runs reached, so that a change of the arbitraries cannot leave a branch unvisited. */
const reached = { refused: 0, started: 0, completedByRead: 0, reads: 0 };

let run: Run;
beforeAll(async () => {
	run = await triggerFor(service.url, ACCESS_TOKEN, CALLBACK_SECRET, PARAMETERS);
});

property.prop([callbackText, contentType, tokenCase(CALLBACK_SECRET)])(
	'never throws, refuses a wrong token, starts nothing refused and no incomplete result, reshapes no item, leaks nothing, reads only /image/{id} or /text/{id}',
	async (text, type, token) => {
		resetProcessState();
		const readsBefore = service.requests.length;
		const call = await deliver(run, text, type, token);
		if (call === undefined) return;
		const { status, refused, items, answer } = call;
		if (!token.valid) expect([status, items.length]).toEqual([401, 0]);
		reached.refused += refused ? 1 : 0;
		reached.started += items.length;
		reached.reads += service.requests.length - readsBefore;
		if (refused) expect(items).toEqual([]);
		expect(answer.length).toBeLessThanOrEqual(1024);
		expect(nestedDeeperThan(items, MAX_DEPTH + 3)).toBe(false);
		expect(findLeaks({ answer, items }, [CALLBACK_SECRET, ACCESS_TOKEN])).toEqual([]);
		for (const item of items) {
			expect(Object.keys(item)).toEqual(['json']);
			expect(Object.getPrototypeOf(item.json)).toBe(Object.prototype);
			expect(typeof item.json.receivedAt).toBe('string');
			const { event } = item.json;
			// A moderation.completed starts only complete, whatever its data looks like (a queue item's shape too).
			if (event === RESULT_EVENT) expect(isCompleteResult(item.json)).toBe(true);
			if (event === RESULT_EVENT && service.requests.length > readsBefore) reached.completedByRead++;
		}
		for (const read of service.requests.slice(readsBefore)) {
			const segment = READ_PATH.exec(read.path)?.[2];
			expect(segment !== undefined && !['.', '..'].includes(decodeURIComponent(segment))).toBe(true);
		}
		expect(({} as IDataObject).polluted).toBeUndefined();
	},
);

test('the property reached refusals, starts, reads and results completed by a read', () => {
	expect(Object.values(reached).every((count) => count > 0)).toBe(true);
});

/** A delivery of one of the service's completions: the full result, only its id, or a body it must read back. */
const delivery = fc.tuple(
	fc.constantFrom(...SERVICE_IDS.ready, ...SERVICE_IDS.processing),
	fc.constantFrom('full', 'idOnly', 'unfinished', 'flat'),
);

property.prop([fc.array(delivery, { minLength: 1, maxLength: 12 })])(
	'one start per completion whatever the order and repeats; an unfinished one never starts',
	async (deliveries) => {
		resetProcessState();
		const starts = new Map<string, number>();
		for (const [id, form] of deliveries) {
			const data =
				form === 'full'
					? imageResult(id)
					: form === 'unfinished'
						? { ...imageResult(id), isSafe: null, status: 'processing' }
						: { id };
			const body = form === 'flat' ? data : { event: RESULT_EVENT, data };
			const call = await deliver(run, JSON.stringify(body), 'application/json', { query: { token: CALLBACK_SECRET }, headers: {} });
			for (const item of call?.items ?? []) starts.set(String(item.json.id), (starts.get(String(item.json.id)) ?? 0) + 1);
		}
		for (const id of new Set(deliveries.map(([id]) => id))) {
			const ready = (SERVICE_IDS.ready as readonly string[]).includes(id);
			// A full body of an id the service still processes is complete as it came, and starts once.
			const fullSent = deliveries.some(([sent, form]) => sent === id && form === 'full');
			expect([id, starts.get(id) ?? 0]).toEqual([id, ready || fullSent ? 1 : 0]);
		}
	},
);
