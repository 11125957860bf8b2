/**
 * S5 repeated runs: two runs of 600 items one after the other (no limit) at 1 s and at 3 s per request,
 * against sending all at once (this node at Fixed Concurrency 600: the same engine work, every item at
 * once). The second run starts where the first left the shared limit. Targets: the second run >= 0.8
 * of all at once; the first no worse than before the shared limiter (0.49 at 1 s, 0.33 at 3 s).
 */
import { round, runScenario, strip, type BenchContext } from '../harness';
import { runOurNodeWith } from '../workloads';

const ITEMS_S5 = 600;
const LATENCIES_MS = [1000, 3000];
const BEFORE = { 1000: 0.49, 3000: 0.33 } as Record<number, number>;

export async function s5(ctx: BenchContext): Promise<void> {
	const { mock, target, result } = ctx;
	const rows = [];
	for (const latencyMs of LATENCIES_MS) {
		console.log(`\nS5: two runs of ${ITEMS_S5} items back to back, ${latencyMs} ms per request, no limit`);
		mock.configure({ latencyMs, rateLimit: 0, rateLimitBurst: 0 });
		const run = (items: Parameters<typeof runOurNodeWith>[1]) => runOurNodeWith(target, items, {});
		const first = await runScenario(ctx, 'first', 'first run (nothing learned)', run, `s5-${latencyMs}-1`, { items: ITEMS_S5 });
		const second = await runScenario(ctx, 'second', 'second run (starts at the learned level)', run, `s5-${latencyMs}-2`, { items: ITEMS_S5, keepLearned: true });
		const all = await runScenario(ctx, 'all', `all at once (Fixed Concurrency ${ITEMS_S5})`, (items) => runOurNodeWith(target, items, { concurrency: ITEMS_S5 }), `s5-${latencyMs}-all`, { items: ITEMS_S5 });
		const firstRatio = round(all.seconds / first.seconds, 2);
		const secondRatio = round(all.seconds / second.seconds, 2);
		const met = secondRatio >= 0.8 && firstRatio >= BEFORE[latencyMs] && first.failedItems + second.failedItems === 0;
		rows.push({ latencyMs, first: strip(first), second: strip(second), all: strip(all), firstRatio, secondRatio, met });
		console.log(`  all at once / first = ${firstRatio} (target >= ${BEFORE[latencyMs]}), / second = ${secondRatio} (target >= 0.8) -> ${met ? 'met' : 'NOT met'}`);
	}
	result.S5 = { items: ITEMS_S5, rows, target: 'second run >= 0.8 of all at once; first >= 0.49 (1 s) and 0.33 (3 s)' };
}
