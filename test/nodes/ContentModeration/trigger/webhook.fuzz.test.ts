/**
 * The trigger's webhook() under hostile callbacks, in process: n8n-core's real WebhookContext (its real
 * helpers, returnJsonArray included) and request helpers, the full-result read going to a local server
 * that records every path. Seeded (test/helpers/fuzz.ts): a failure names the call to replay.
 */
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import { MAX_DEPTH, nestedDeeperThan } from '@package/nodes/ContentModeration/helpers/json';
import { MIN_CALLBACK_SECRET_LENGTH } from '@package/nodes/ContentModeration/inbound/secretRule';
import { systemClock } from '@package/nodes/ContentModeration/helpers/clock';
import { MIN_MASKED_LENGTH } from '@package/nodes/ContentModeration/redaction/secretPatterns';
import { FakeClock } from '@test/helpers/fakeClock';
import { FUZZ_SEED, fuzzCalls, hostileBody, prng, tokenCase, Violations } from '@test/helpers/fuzz';
import { fakeRequest, fakeResponse, triggerFor } from '@test/helpers/fuzzTrigger';
import { everyString, findLeaks, leakForms } from '@test/helpers/leaks';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';
import { PROCESS_STATE } from '@package/nodes/ContentModeration/helpers/processState';

const REREAD_INTERVAL_MS = PROCESS_STATE.credentialReads.ttlMs;

const ACCESS_TOKEN = 'at-fuzz"7f3a/+&=Kx91';
const CALLBACK_SECRET = 'cb-fuzz"é/+&= q-5d2e';
/** A secret below the length redaction masks inside texts: it must garble nothing. */
const SHORT_SECRET = 'e';
/** What a started item's answer may weigh at most: an ack names an event and an id, both bounded. */
const MAX_ANSWER_CHARS = 1024;
const READ_PATH = /^\/(image|text)\/([^/?#]+)$/;

let service: ScriptedServer;
beforeAll(async () => {
	service = await startScriptedServer((request) => ({
		status: 200,
		body: { id: request.path.split('/').pop(), isSafe: true, summary: 'ok', confidence: 0.9, description: 'd', riskScores: {}, topics: [], nsfwCategories: [], suggestedActions: {}, hash: 'h', filteredContent: 'f' },
	}));
});
afterAll(async () => await service.stop());

// The secret cache's time: a wrong token on a warm cache waits a (fake) second for the next read.
const clock = new FakeClock();
beforeEach(() => {
	jest.spyOn(systemClock, 'now').mockImplementation(clock.now);
	jest.spyOn(systemClock, 'sleep').mockImplementation(clock.sleep);
});
afterEach(() => jest.restoreAllMocks());

interface Tally {
	calls: number;
	started: number;
	refused: number;
	reads: number;
}

/**
 * Where a secret shows in what left: any form of it for a secret redaction masks inside texts; for a
 * shorter one, a whole string that is a form of it or a URL's token value that is one.
 */
function leaksOf(value: unknown, secret: string): string[] {
	if (secret.length >= MIN_MASKED_LENGTH) return findLeaks(value, [secret]);
	const forms = leakForms(secret);
	const tokens = (text: string) => [...text.matchAll(/[?&]token=([^&#"'\s\\]*)/gi)].map((match) => match[1]);
	return everyString(value).filter((text) => forms.includes(text) || tokens(text).some((token) => forms.includes(token)));
}

async function fuzz(secret: string, calls: number, seedOffset: number): Promise<Tally & { violations: string[] }> {
	const violations = new Violations();
	const tally: Tally = { calls: 0, started: 0, refused: 0, reads: 0 };
	const mode = secret.length < MIN_CALLBACK_SECRET_LENGTH ? 'manual' : 'webhook';
	const run = await triggerFor(service.url, ACCESS_TOKEN, secret, { eventTypes: 'any', events: 'all', fetchFullResult: true, options: { includeRequest: true } }, mode);
	for (let call = 0; call < calls; call++) {
		const seed = FUZZ_SEED * 1_000_003 + seedOffset + call;
		const random = prng(seed);
		const { text, contentType } = hostileBody(random, secret);
		const token = tokenCase(random, secret);
		const req = fakeRequest(text, contentType, token);
		if (req === undefined) continue; // n8n refuses a malformed JSON body itself (422)
		const res = fakeResponse();
		const readsBefore = service.requests.length;
		tally.calls++;
		let result: IWebhookResponseData;
		try {
			// A wrong token against a warm secret cache waits for the next credential read: time moves on.
			const answer = run(req, res);
			await clock.advance(REREAD_INTERVAL_MS);
			result = await answer;
		} catch (error) {
			violations.check(false, `webhook() threw ${(error as Error).message.slice(0, 80)}`, seed);
			// n8n answers a throw with 500.
			res.writeHead(500).end();
			continue;
		}
		const items = result.workflowData?.[0] ?? [];
		const refused = res.writableEnded && res.statusCode >= 400;
		if (refused) tally.refused++;
		if (items.length > 0) tally.started++;
		violations.check(!(refused && items.length > 0), 'started on a refused call', seed);
		violations.check(token.valid || (res.statusCode === 401 && items.length === 0), 'a wrong token was not refused with 401', seed);
		const answer = res.writableEnded ? res.text : JSON.stringify(result.webhookResponse ?? '');
		violations.check(answer.length <= MAX_ANSWER_CHARS, `answer of ${answer.length} characters`, seed);
		// What n8n stores and copies (recursively) stays within the documented nesting.
		const tooDeep = nestedDeeperThan(items, MAX_DEPTH + 3);
		violations.check(!tooDeep, 'a started item nested deeper than the limit', seed);
		const leaks = tooDeep ? [] : [...leaksOf({ answer, items }, secret), ...leaksOf({ answer, items }, ACCESS_TOKEN)];
		violations.check(leaks.length === 0, `leak ${leaks.join()}`, seed);
		for (const item of items) {
			violations.check(Object.getPrototypeOf(item.json) === Object.prototype, 'the item prototype changed', seed);
			violations.check(typeof item.json.event === 'string' && typeof item.json.receivedAt === 'string', 'the item was replaced', seed);
			violations.check(Object.keys(item).every((key) => key === 'json'), `the item carries ${Object.keys(item).join()}`, seed);
			violations.check(item.json.error === undefined, 'an error field the node did not set (every read succeeds)', seed);
		}
		for (const read of service.requests.slice(readsBefore)) {
			const segment = READ_PATH.exec(read.path)?.[2];
			const ok = segment !== undefined && !['.', '..'].includes(decodeURIComponent(segment));
			violations.check(ok, `read ${read.method} ${read.path}`, seed);
			tally.reads++;
		}
		// n8n answers once the execution exists: a repeat of the completion may then be told duplicate.
		if (!res.writableEnded) res.end();
	}
	violations.check(({} as IDataObject).polluted === undefined, 'Object.prototype polluted', 0);
	if (process.env.FUZZ_REPORT) console.log(`trigger, secret of ${secret.length}: ${JSON.stringify(tally)}`);
	return { ...tally, violations: violations.found };
}

describe("the trigger's webhook() under hostile callbacks", () => {
	it('never throws, starts nothing refused, leaks no secret form, keeps item prototypes, reads only /image/{id} or /text/{id}, answers small', async () => {
		const outcome = await fuzz(CALLBACK_SECRET, fuzzCalls(1500), 0);
		expect(outcome.violations).toEqual([]);
		// The cases reached every branch: refusals, starts and reads.
		expect(outcome.refused).toBeGreaterThan(outcome.calls / 4);
		expect(outcome.started).toBeGreaterThan(outcome.calls / 20);
		expect(outcome.reads).toBeGreaterThan(0);
	}, 60_000);

	it('with a short Callback Secret (the test URL) the items keep their keys and texts: only whole-string forms and URL token values are masked', async () => {
		const outcome = await fuzz(SHORT_SECRET, fuzzCalls(1500) / 3, 7_000_000);
		expect(outcome.violations).toEqual([]);
		const run = await triggerFor(service.url, ACCESS_TOKEN, SHORT_SECRET, { eventTypes: 'any', events: 'all', fetchFullResult: false }, 'manual');
		const res = fakeResponse();
		const body = { id: 'short-1', isSafe: true, description: 'a landscape', summary: 'Callback secrets' };
		// The secret itself, as a whole value, is still masked.
		const withSecret = { ...body, note: SHORT_SECRET };
		const result = await run({ headers: { 'content-type': 'application/json' }, query: { token: SHORT_SECRET }, params: {}, body: withSecret, rawBody: Buffer.from(JSON.stringify(withSecret)), contentType: 'application/json' }, res);
		expect(result.workflowData?.[0][0].json).toMatchObject({ ...body, note: '***', event: 'moderation.completed' });
	}, 60_000);
});
