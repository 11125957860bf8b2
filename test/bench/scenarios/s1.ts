/**
 * S1: ITEMS items, 200 ms latency, no limit: this node's default vs n8n's HTTP Request at its defaults
 * (no Batching option: V3 sends every item at once) vs raw undici sending all at once. Target: this node
 * >= 0.7 x HTTP Request's items/s.
 */
import type { Series } from '../chart';
import { median, REPEATS, ITEMS, round, runScenario, type BenchContext, type ScenarioResult } from '../harness';
import { runUndici } from '../workloads';
import { scenarioVariants } from './variants';

export const S_LATENCY_MS = 200;

export async function s1(ctx: BenchContext): Promise<void> {
	const { mock, target, kit, result, panels } = ctx;
	console.log(`\nS1: ${ITEMS} items, ${S_LATENCY_MS} ms latency, no rate limit (${REPEATS} repeats, interleaved)`);
	mock.configure({ latencyMs: S_LATENCY_MS, rateLimit: 0, rateLimitBurst: 0 });
	const variants = scenarioVariants(kit, target, false);
	variants.push({
		id: 'undici_all',
		label: 'raw undici, all items at once',
		color: '#2da44e',
		run: async (items) => ({ status: 'success', out: await runUndici(target, items, items.length) }),
	});
	const runs: Record<string, ScenarioResult[]> = Object.fromEntries(variants.map((v) => [v.id, []]));
	for (let r = 0; r < REPEATS; r++) {
		for (const v of variants) runs[v.id].push(await runScenario(ctx, v.id, v.label, v.run, `s1-${r}-${v.id}`));
	}
	const medians = Object.fromEntries(variants.map((v) => [v.id, median(runs[v.id].map((x) => x.itemsPerSecond))]));
	const s1 = {
		latencyMs: S_LATENCY_MS,
		variants: variants.map((v) => ({
			id: v.id,
			label: v.label,
			itemsPerSecondMedian: medians[v.id],
			itemsPerSecondSamples: runs[v.id].map((x) => x.itemsPerSecond),
			failedItems: runs[v.id].map((x) => x.failedItems),
			peakInFlight: runs[v.id].map((x) => x.peakInFlight),
		})),
		nodeOverHttpRequest: medians.http_default ? round(medians.node_default / medians.http_default, 2) : null,
		// Each repeat runs the variants back to back, so the ratio within a repeat shares its moment's load.
		nodeOverHttpRequestPerRepeat: runs.http_default
			? runs.node_default.map((x, r) => {
					const theirs = runs.http_default[r].itemsPerSecond;
					return theirs > 0 ? round(x.itemsPerSecond / theirs, 2) : null;
				})
			: null,
		nodeOverUndici: round(medians.node_default / medians.undici_all, 2),
		target: 'node / HTTP Request default >= 0.7',
	};
	result.S1 = s1;
	console.log(`  median items/s: ${variants.map((v) => `${v.id} ${medians[v.id]}`).join(', ')}`);
	console.log(`  node / HTTP Request default = ${s1.nodeOverHttpRequest} (target >= 0.7; per repeat ${s1.nodeOverHttpRequestPerRepeat?.map((r) => r ?? 'n/a (HTTP Request failed every item)').join(', ')}); node / undici all at once = ${s1.nodeOverUndici}`);
	// The chart shows the last repeat.
	panels.push({
		title: `S1: ${S_LATENCY_MS} ms, no limit`,
		items: ITEMS,
		series: variants.map((v): Series => ({ label: v.label, color: v.color, exchanges: runs[v.id][REPEATS - 1].exchanges })),
	});
}
