/**
 * What the node promises about load on the service, checked where it counts: at the mock service
 * (requests in flight counted by the server), through n8n-core's real engine.
 *   - Fixed Concurrency N: exactly N in flight, never more;
 *   - adaptive (the default): starts at INITIAL_LIMIT, grows, never passes Max Concurrency;
 *   - one shared Retry-After pause: after a 429 no new request of the run reaches the service until the
 *     time it named; every item still succeeds once, in order, paired;
 *   - a run that fails sends none of its waiting items;
 *   - bytes in flight: large binary images are sent a few at a time whatever the request limit.
 */
import { randomBytes } from 'node:crypto';

import { makePng } from '@dev/mock/png';
import { startMockService, type MockService } from '@dev/mock/server';
import { INITIAL_LIMIT } from '@package/nodes/ContentModeration/limiter/adaptiveLimit';
import { MAX_BODY_BYTES_IN_FLIGHT } from '@package/nodes/ContentModeration/limiter/bytes';
import { limiters, serviceKey } from '@package/nodes/ContentModeration/limiter/registry';
import { waitFor } from '@dev/wait';
import { imageItems } from '../../../bench/workloads';
import { binaryItem, moderateUrlParameters, moderationNode, runWorkflow } from '@test/helpers/engine';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

let mock: MockService;

beforeAll(async () => {
	mock = await startMockService({ maxBodyBytes: 32 * 1024 * 1024 });
});
afterAll(async () => {
	await mock?.stop();
});
beforeEach(() => {
	mock.configure({ latencyMs: 0, rateLimit: 0, rateLimitBurst: 0 });
	mock.reset();
	// Each case is a fresh n8n process: nothing learned from the case before.
	resetProcessState();
});

const credentials = () => ({ contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } });

async function moderate(count: number, tag: string, requestOptions: Record<string, unknown>) {
	const items = imageItems(count, tag);
	const run = await runWorkflow({
		nodes: [
			moderationNode(
				moderateUrlParameters({
					options: { actorId: '={{ "actor-" + $json.index }}', ...requestOptions },
				}),
			),
		],
		credentials: credentials(),
		items,
	});
	expect([run.error?.message, run.error?.description]).toEqual([undefined, undefined]);
	const out = run.outputOf('Content Moderation');
	expect(out).toHaveLength(count);
	out.forEach((item, i) => {
		expect(item.pairedItem).toEqual({ item: i });
		expect(typeof item.json.isSafe).toBe('boolean');
	});
	// Each item was acted on exactly once.
	expect(mock.submissionLog).toHaveLength(count);
	expect([...mock.submissions.values()].every((n) => n === 1)).toBe(true);
	return out;
}

describe('requests in flight, counted at the service', () => {
	it('Fixed Concurrency N keeps exactly N in flight', async () => {
		mock.configure({ latencyMs: 40 });
		await moderate(60, 'fixed', { concurrency: 7 });
		expect(mock.traffic.peakInFlight).toBe(7);
	});

	it('the default starts at INITIAL_LIMIT, grows while answers are healthy, and stops at Max Concurrency', async () => {
		mock.configure({ latencyMs: 150 });
		await moderate(120, 'adaptive-cap', { maxConcurrency: 24 });
		const arrivals = mock.requests.map((r) => r.time).sort((a, b) => a - b);
		// Nothing was answered before 150 ms: what arrived by then is the first round.
		expect(arrivals.filter((t) => t < arrivals[0] + 120)).toHaveLength(INITIAL_LIMIT);
		expect(mock.traffic.peakInFlight).toBe(24);
	});
});

describe('one shared Retry-After pause', () => {
	it('after a 429 no new request of the run reaches the service until Retry-After has passed', async () => {
		// A token bucket of 5 requests refilled at 40/s: the first round of 10 overruns it. More items than
		// the first round, so that a node pausing only the throttled items would go on sending the others.
		mock.configure({ latencyMs: 30, rateLimit: 40, rateLimitBurst: 5 });
		await moderate(60, 'pause', { maxConcurrency: 20, maxRetries: 10 });

		const posts = mock.requests.filter((r) => r.method === 'POST').sort((a, b) => a.time - b.time);
		const first429 = posts.find((r) => r.status === 429)!;
		expect(first429).toBeDefined();
		// The client sees that 429 after the latency; Retry-After is 1 s. Requests let through before it was
		// seen still arrive a little later (n8n's request helper takes up to ~100 ms per request on a busy
		// machine, seen here); then nothing until the second has passed.
		const seenAt = first429.time + 30;
		const during = posts.filter((r) => r.time > seenAt + 300 && r.time < seenAt + 950);
		expect(during).toEqual([]);
		expect(posts.filter((r) => r.time >= seenAt + 1000).length).toBeGreaterThan(0);
		expect(posts.filter((r) => r.status === 200)).toHaveLength(60);
	});
});

describe('a run that fails', () => {
	it('sends none of its waiting items, gives its places back, and a run waiting behind it goes on', async () => {
		mock.configure({ latencyMs: 500 });
		// Item 0 asks the mock for an impossible number: a 400, and without continueOnFail the run fails.
		const items = imageItems(200, 'failing');
		items[0].json.url = `${String(items[0].json.url)}?mock_confidence=0`;
		const node = [moderationNode(moderateUrlParameters())];
		const failing = runWorkflow({ nodes: node, credentials: credentials(), items });
		// Its first round is in flight; the other 180 items (all started: Max Concurrency 1000) wait.
		await waitFor('the first round', () => (mock.traffic.inFlight === INITIAL_LIMIT || undefined), 10_000, 5);
		const behind = runWorkflow({ nodes: node, credentials: credentials(), items: imageItems(5, 'behind') });
		const [failed, after] = await Promise.all([failing, behind]);

		expect(failed.error?.message).toContain('mock_confidence');
		const sent = (tag: string) => mock.requests.filter((r) => JSON.stringify(r.body).includes(`/uploads/${tag}/`));
		expect(sent('failing').length).toBe(INITIAL_LIMIT);
		expect(after.error).toBeUndefined();
		expect(sent('behind')).toHaveLength(5);
		expect(limiters.limiterFor(serviceKey(mock.url, mock.token)).snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
	});

	it('reports the item that failed, not the cancel of the items it stopped', async () => {
		const items = imageItems(10, 'invalid');
		items[5].json.url = 'ftp://cdn.example.com/5.jpg';
		const run = await runWorkflow({ nodes: [moderationNode(moderateUrlParameters())], credentials: credentials(), items });
		expect(run.error?.message).toBe('The Image URL must be an http(s) URL, not ftp [item 5]');
		expect(mock.requests.length).toBe(0);
	});
});

describe('bytes in flight', () => {
	it('sends large binary images only as many at a time as the byte budget holds', async () => {
		mock.configure({ latencyMs: 300 });
		// 13 MB images are 17.3 MB of base64: three fit in the 64 MB budget, four do not.
		const imageBytes = 13 * 1024 * 1024;
		const perBody = Math.ceil(imageBytes / 3) * 4;
		expect(3 * perBody).toBeLessThanOrEqual(MAX_BODY_BYTES_IN_FLIGHT);
		expect(4 * perBody).toBeGreaterThan(MAX_BODY_BYTES_IN_FLIGHT);
		const png = makePng('cat');
		const items = Array.from({ length: 6 }, (_, i) =>
			binaryItem(Buffer.concat([png, randomBytes(imageBytes - png.length)]), { json: { index: i } }),
		);
		// The bytes the process holds, sampled: the budget admits three bodies at once, never four.
		let peakBytes = 0;
		const sampler = setInterval(() => (peakBytes = Math.max(peakBytes, limiters.bytes.bytesInFlight)), 1);
		const run = await runWorkflow({
			nodes: [moderationNode({ resource: 'image', operation: 'moderate', inputType: 'binary', binaryPropertyName: 'data', mode: 'immediate' })],
			credentials: credentials(),
			items,
		}).finally(() => clearInterval(sampler));
		expect([run.error?.message, run.error?.description]).toEqual([undefined, undefined]);
		const out = run.outputOf('Content Moderation');
		expect(out.map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
		expect(peakBytes).toBe(3 * perBody);
		// At the service (on a loaded machine one may be answered before the third arrives).
		expect(mock.traffic.peakInFlight).toBeLessThanOrEqual(3);
	}, 120_000);
});
