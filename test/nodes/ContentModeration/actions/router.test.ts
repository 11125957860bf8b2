/**
 * Fault test: 1000 items through Image > Moderate in n8n-core's real engine while the mock
 * service answers 10% of requests 503 and 5% 429, both with Retry-After. Every item must succeed, the
 * output must be exact (count, order, pairing), and the service must have acted on each item once.
 */
import { moderateUrlParameters, moderationNode, runWorkflow } from '@test/helpers/engine';
import { startMockService, type MockService } from '@dev/mock/server';
import { imageItems } from '../../../bench/workloads';

const ITEMS = 1000;

describe('Image > Moderate under injected faults (10% 503, 5% 429, with Retry-After)', () => {
	let mock: MockService;

	beforeAll(async () => {
		// Retry-After 0 keeps the test short; the waits themselves are covered in retry.test.ts.
		mock = await startMockService({ faultRate: 0.1, throttleRate: 0.05, retryAfterSeconds: 0, latencyMs: 2 });
	});

	afterAll(async () => {
		await mock?.stop();
	});

	it.each([
		['the default (adaptive concurrency, shared Retry-After pause)', {}],
		['Fixed Concurrency 20', { concurrency: 20 }],
	])('%s: moderates every item exactly once, in order, paired to its input', async (label, concurrency) => {
		mock.reset();
		const items = imageItems(ITEMS, `faults-${label.length}`);
		const run = await runWorkflow({
			nodes: [
				moderationNode(
					moderateUrlParameters({
						// 10 retries: at 15% faults an item then fails with odds 0.15^11 (about 1e-9), so the test is not flaky.
						options: {
							actorId: '={{ "actor-" + $json.index }}',
							meta: '={{ JSON.stringify({ i: $json.index }) }}',
							...concurrency,
							maxRetries: 10,
						},
					}),
				),
			],
			credentials: { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } },
			items,
		});

		expect([run.error?.message, run.error?.description]).toEqual([undefined, undefined]);
		expect(run.status).toBe('success');
		const out = run.outputOf('Content Moderation');
		expect(out).toHaveLength(ITEMS);
		out.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			// The service stores meta with the moderation: output i is the moderation of input i.
			expect(item.json.meta).toEqual({ i });
			expect(typeof item.json.hash).toBe('string');
			expect(typeof item.json.isSafe).toBe('boolean');
			expect(item.json.error).toBeUndefined();
		});
		// Immediate image results carry no id (API reference): each item's own meta tells them apart.
		expect(new Set(out.map((item) => JSON.stringify(item.json.meta))).size).toBe(ITEMS);

		// The faults really happened, and each was retried.
		const posts = mock.requests.filter((r) => r.method === 'POST' && r.path === '/image');
		const byStatus = (status: number) => posts.filter((r) => r.status === status).length;
		expect(byStatus(200)).toBe(ITEMS);
		expect(byStatus(503)).toBeGreaterThanOrEqual(100);
		expect(byStatus(429)).toBeGreaterThanOrEqual(50);
		expect(posts).toHaveLength(byStatus(200) + byStatus(503) + byStatus(429));

		// Nothing was submitted twice: one accepted submission per actor, per meta and per image.
		expect(mock.submissionLog).toHaveLength(ITEMS);
		const counts = [...mock.submissions.entries()];
		expect(counts.filter(([key]) => key.startsWith('actor:'))).toHaveLength(ITEMS);
		expect(counts.filter(([key]) => key.startsWith('meta:'))).toHaveLength(ITEMS);
		expect(counts.filter(([key]) => key.startsWith('hash:'))).toHaveLength(ITEMS);
		expect(counts.filter(([, n]) => n !== 1)).toEqual([]);
	}, 60_000); // About 11 s each here; the bound leaves room for a loaded CI machine.
});
