/**
 * S1: ITEMS items, 200 ms latency, no limit: this node's default vs n8n's HTTP Request at its defaults
 * (no Batching option: V3 sends every item at once) vs raw undici sending all at once. Target: this node
 * >= 0.7 x HTTP Request's items/s. Then the same two defaults against the mock in its own process
 * (`ownProcess`), measured beside the target's row.
 */
import { resetProcessState } from '../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';
import type { Series } from '../chart';
import { median, REPEATS, ITEMS, round, runScenario, type BenchContext, type ScenarioResult } from '../harness';
import { startMockProcess } from '../mockProcess';
import { checkOutput, imageItems, runOurNodeWith, runUndici, type Target } from '../workloads';
import { scenarioVariants, type Variant } from './variants';

export const S_LATENCY_MS = 200;

export async function s1(ctx: BenchContext): Promise<void> {
	const { mock, target, kit, result, panels } = ctx;
	console.log(`\nS1: ${ITEMS} items, ${S_LATENCY_MS} ms latency, no rate limit (${REPEATS} repeats, interleaved)`);
	mock.configure({ latencyMs: S_LATENCY_MS, rateLimit: 0, rateLimitBurst: 0 });
	const variants = scenarioVariants(kit, target, false);
	variants.push(previousDefault(target));
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
		max500OverHttpRequest: medians.http_default ? round(medians.node_max500 / medians.http_default, 2) : null,
		target: 'node / HTTP Request default >= 0.7',
	};
	result.S1 = s1;
	console.log(`  median items/s: ${variants.map((v) => `${v.id} ${medians[v.id]}`).join(', ')}`);
	console.log(`  node / HTTP Request default = ${s1.nodeOverHttpRequest} (target >= 0.7; per repeat ${s1.nodeOverHttpRequestPerRepeat?.map((r) => r ?? 'n/a (HTTP Request failed every item)').join(', ')}); node / undici all at once = ${s1.nodeOverUndici}; Max Concurrency 500 / HTTP Request = ${s1.max500OverHttpRequest}`);
	if (ctx.kit) (s1 as Record<string, unknown>).ownProcess = await ownProcess(ctx);
	// The chart shows the last repeat.
	panels.push({
		title: `S1: ${S_LATENCY_MS} ms, no limit`,
		items: ITEMS,
		series: variants.map((v): Series => ({ label: v.label, color: v.color, exchanges: runs[v.id][REPEATS - 1].exchanges })),
	});
}

/**
 * The previous default: its slow start (20, 60, 180, 500) never opens more connections at once than the
 * mock's listen backlog (511) holds; the default's 540 does (see ownProcess).
 */
function previousDefault(target: Target): Variant {
	return {
		id: 'node_max500',
		label: 'Content Moderation node, Max Concurrency 500 (the previous default)',
		color: '#6e40c9',
		run: (items) => runOurNodeWith(target, items, { maxConcurrency: 500 }),
	};
}

/**
 * The mock in this process accepts a connection only when the event loop gets to it, and n8n opens one per
 * request: a burst above the listen backlog (511) loses SYNs, retried a second later. HTTP Request's 1000
 * at once hit that, and so does this node's slow-start round of 540 (20, 60, 180, 540 under Max Concurrency
 * 1000; 500 under the old default never did). A real service accepts while n8n works: the same defaults
 * against the mock in its own process, interleaved, each node run from a fresh limiter.
 */
async function ownProcess(ctx: BenchContext): Promise<Record<string, unknown>> {
	const service = await startMockProcess({ latencyMs: S_LATENCY_MS, token: 'bench-token' });
	try {
		const target = { url: service.url, token: service.token };
		const variants = [...scenarioVariants(ctx.kit, target, false), previousDefault(target)];
		const samples: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.id, []]));
		for (let r = 0; r < REPEATS; r++) {
			for (const v of variants) {
				resetProcessState();
				const items = imageItems(ITEMS, `s1-own-${r}-${v.id}`);
				const started = process.hrtime.bigint();
				const outcome = await v.run(items);
				const seconds = Number(process.hrtime.bigint() - started) / 1e9;
				if (outcome.status !== 'success') throw new Error(`S1 own process, ${v.id}: ${outcome.status}: ${outcome.error}`);
				checkOutput(outcome.out, ITEMS, `S1 own process, ${v.id}`);
				samples[v.id].push(round(ITEMS / seconds));
			}
		}
		const medians = Object.fromEntries(variants.map((v) => [v.id, median(samples[v.id])]));
		const own = {
			about: 'the mock in its own process (accepts while n8n works); measured beside the target row, not a target',
			variants: variants.map((v) => ({ id: v.id, itemsPerSecondMedian: medians[v.id], itemsPerSecondSamples: samples[v.id] })),
			nodeOverHttpRequest: round(medians.node_default / medians.http_default, 2),
			nodeOverHttpRequestPerRepeat: samples.node_default.map((x, r) => round(x / samples.http_default[r], 2)),
			max500OverHttpRequest: round(medians.node_max500 / medians.http_default, 2),
		};
		console.log(
			`  service in its own process: median items/s ${variants.map((v) => `${v.id} ${medians[v.id]}`).join(', ')}; ` +
				`node / HTTP Request = ${own.nodeOverHttpRequest} (per repeat ${own.nodeOverHttpRequestPerRepeat.join(', ')}); Max Concurrency 500 / HTTP Request = ${own.max500OverHttpRequest}`,
		);
		return own;
	} finally {
		service.child.kill();
	}
}
