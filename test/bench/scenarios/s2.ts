/**
 * S2: ITEMS items, 200 ms latency, a token bucket of 50 requests/s (bucket of 50) answered with 429 +
 * Retry-After: this node's default vs the limit N/R vs HTTP Request at its defaults, and with its node
 * setting Retry On Fail on (n8n's defaults: 3 tries, 1000 ms apart); time, failed items, share of 429s,
 * content submitted twice. Targets: <= 1.15 x N/R, 0 failed, <= 5% of requests answered 429.
 */
import { ITEMS, pause, round, runScenario, strip, type BenchContext, type ScenarioResult } from '../harness';
import { S_LATENCY_MS } from './s1';
import { scenarioVariants } from './variants';

const S2_RATE = 50;
const S2_BURST = 50;

export async function s2(ctx: BenchContext): Promise<void> {
	const { mock, target, kit, result, panels } = ctx;
	const limitSeconds = ITEMS / S2_RATE;
	console.log(`\nS2: ${ITEMS} items, ${S_LATENCY_MS} ms latency, token bucket ${S2_RATE}/s (bucket ${S2_BURST}), 429 + Retry-After; N/R = ${limitSeconds} s`);
	mock.configure({ latencyMs: S_LATENCY_MS, rateLimit: S2_RATE, rateLimitBurst: S2_BURST });
	const variants = scenarioVariants(kit, target, true);
	const runs: ScenarioResult[] = [];
	for (const v of variants) {
		runs.push(await runScenario(ctx, v.id, v.label, v.run, `s2-${v.id}`));
		// Let the bucket fill again so every variant starts alike.
		await pause(1500);
	}
	const node = runs.find((x) => x.id === 'node_default')!;
	const s2 = {
		latencyMs: S_LATENCY_MS,
		rate: S2_RATE,
		burst: S2_BURST,
		limitSeconds,
		variants: runs.map(strip),
		nodeOverLimit: round(node.seconds / limitSeconds, 3),
		target: 'node time <= 1.15 x N/R, 0 failed, <= 5% of requests answered 429',
		met: node.seconds <= 1.15 * limitSeconds && node.failedItems === 0 && node.share429 <= 0.05,
	};
	result.S2 = s2;
	console.log(`  node / (N/R) = ${s2.nodeOverLimit} (target <= 1.15), failed ${node.failedItems}, 429 share ${round(node.share429 * 100)}% -> ${s2.met ? 'met' : 'NOT met'}`);
	panels.push({
		title: `S2: ${S_LATENCY_MS} ms, ${S2_RATE}/s limit`,
		items: ITEMS,
		series: runs.map((x) => ({
			label: `${x.label}${x.failedItems > 0 ? `: ${x.failedItems} items failed` : ''}`,
			color: variants.find((v) => v.id === x.id)!.color,
			exchanges: x.exchanges,
		})),
		limit: { label: `the limit: ${S2_RATE} items/s (N/R = ${limitSeconds} s)`, itemsAt: (ms) => (ms / 1000) * S2_RATE, endMs: limitSeconds * 1000 },
	});
}
