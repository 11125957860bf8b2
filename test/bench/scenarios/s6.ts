/**
 * S6 fault shapes: 600 items at 200 ms, no rate limit, each beside the same run without faults: 1%, 5%
 * and 10% of answers 503 (Retry-After: 0) and 5% 429 (Retry-After: 0), at random (a seeded generator);
 * targets <= 1.5 x the fault-free time, 0 failed, 0 submitted twice. And a full service (works on 50 at
 * once, answers the rest 503 at once without Retry-After): 0 failed, <= 1.3 x N x latency / 50, <= 10% 503.
 * And 5% 503 from a proxy after the service acted (a text page, no Retry-After): each such item fails,
 * none is submitted twice.
 */
import type { RuntimeOptions } from '../../../dev/mock/options';
import { round, runScenario, strip, type BenchContext } from '../harness';
import { runOurNodeWith } from '../workloads';
import { S_LATENCY_MS } from './s1';

const ITEMS_S6 = 600;
const CAPACITY = 50;
const SEED = 20261125;
const CLEAN: RuntimeOptions = { latencyMs: S_LATENCY_MS, rateLimit: 0, rateLimitBurst: 0, faultRate: 0, throttleRate: 0, proxyFaultRate: 0, capacity: 0, faultSeed: 0, retryAfterSeconds: 1 };
const SHAPES: Array<{ id: string; label: string; options: RuntimeOptions }> = [
	{ id: 'f503_1', label: '1% 503 (Retry-After: 0) at random', options: { faultRate: 0.01, retryAfterSeconds: 0, faultSeed: SEED } },
	{ id: 'f503_5', label: '5% 503 (Retry-After: 0) at random', options: { faultRate: 0.05, retryAfterSeconds: 0, faultSeed: SEED } },
	{ id: 'f503_10', label: '10% 503 (Retry-After: 0) at random', options: { faultRate: 0.1, retryAfterSeconds: 0, faultSeed: SEED } },
	{ id: 'f429_5', label: '5% 429 (Retry-After: 0) at random', options: { throttleRate: 0.05, retryAfterSeconds: 0, faultSeed: SEED } },
	{ id: 'proxy503_5', label: '5% 503 from a proxy after the service acted (text, no Retry-After) at random', options: { proxyFaultRate: 0.05, faultSeed: SEED } },
	{ id: 'full50', label: `a full service: works on ${CAPACITY} at once, the rest 503 at once`, options: { capacity: CAPACITY } },
];

export async function s6(ctx: BenchContext): Promise<void> {
	const { mock, target, result } = ctx;
	console.log(`\nS6: ${ITEMS_S6} items, ${S_LATENCY_MS} ms, fault shapes each beside the fault-free run`);
	const run = (items: Parameters<typeof runOurNodeWith>[1]) => runOurNodeWith(target, items, {});
	// Under On Error: Continue, so that each item a proxy's 503 fails is counted alone.
	const runContinuing = (items: Parameters<typeof runOurNodeWith>[1]) => runOurNodeWith(target, items, {}, { onError: 'continueRegularOutput' });
	const rows = [];
	for (const shape of SHAPES) {
		mock.configure(CLEAN);
		const clean = await runScenario(ctx, 'clean', 'fault-free', run, `s6-${shape.id}-clean`, { items: ITEMS_S6 });
		mock.configure({ ...CLEAN, ...shape.options });
		// A proxy's 503 may follow the service's work: its item fails, and is never sent again.
		const proxy = shape.id === 'proxy503_5';
		const faulty = await runScenario(ctx, shape.id, shape.label, proxy ? runContinuing : run, `s6-${shape.id}`, { items: ITEMS_S6 });
		const overClean = round(faulty.seconds / clean.seconds, 2);
		const full = shape.id === 'full50';
		const bound = (1.3 * ITEMS_S6 * S_LATENCY_MS) / CAPACITY / 1000;
		const met = full
			? faulty.failedItems === 0 && faulty.seconds <= bound && faulty.share503 <= 0.1
			: proxy
				? faulty.failedItems === faulty.answered503 && faulty.answered503 > 0 && faulty.submittedTwice === 0
				: faulty.failedItems === 0 && overClean <= 1.5 && faulty.submittedTwice === 0;
		rows.push({ id: shape.id, label: shape.label, clean: strip(clean), faulty: strip(faulty), overClean, ...(full ? { bound: round(bound, 2) } : {}), met });
		console.log(
			proxy
				? `  ${shape.label}: ${faulty.answered503} x 503, ${faulty.failedItems} failed (target: the same), ${faulty.submittedTwice} submitted twice (target 0) -> ${met ? 'met' : 'NOT met'}`
				: full
				? `  full service: ${faulty.seconds} s (target <= ${round(bound, 2)} s), ${faulty.failedItems} failed, 503 share ${round(faulty.share503 * 100)}% (target <= 10%) -> ${met ? 'met' : 'NOT met'}`
				: `  ${shape.label}: ${overClean} x the fault-free time (target <= 1.5), ${faulty.failedItems} failed, ${faulty.submittedTwice} submitted twice -> ${met ? 'met' : 'NOT met'}`,
		);
	}
	mock.configure(CLEAN);
	result.S6 = { items: ITEMS_S6, latencyMs: S_LATENCY_MS, seed: SEED, rows };
}
