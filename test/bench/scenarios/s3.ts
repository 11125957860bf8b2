/**
 * S3: ITEMS items, 20 ms latency, the ceiling rows: this node at Fixed Concurrency 5/50/100, raw undici
 * (keep-alive and a new connection per request) and n8n's HTTP client alone at the same parallelism.
 * Target: this node / n8n's HTTP client alone >= 0.9 at 5.
 */
import { median, REPEATS, ITEMS, round, type BenchContext } from '../harness';
import { checkOutput, imageItems, runN8nHttpClient, runOurNode, runUndici, runUndiciNewConnection, type Workload } from '../workloads';

const S3_LATENCY_MS = 20;
const S3_LEVELS = [5, 50, 100] as const;

export async function s3(ctx: BenchContext): Promise<void> {
	const { mock, target, result } = ctx;
	console.log(`\nS3: ${ITEMS} items, ${S3_LATENCY_MS} ms latency, the ceiling rows (${REPEATS} repeats, interleaved)`);
	mock.configure({ latencyMs: S3_LATENCY_MS, rateLimit: 0, rateLimitBurst: 0 });
	const rows: Array<[row: string, label: (n: number) => string, run: Workload]> = [
		['a', (n) => `(a) Content Moderation node, Fixed Concurrency ${n}`, runOurNode],
		['c', (n) => `(c) raw undici Pool, ${n} in flight`, runUndici],
		['c1', (n) => `(c1) raw undici, new connection per request, ${n} in flight`, runUndiciNewConnection],
		['h', (n) => `(h) n8n's HTTP client alone, ${n} in flight`, runN8nHttpClient],
	];
	const variants = rows.flatMap(([row, label, run]) =>
		S3_LEVELS.map((n) => ({ id: `${row}_${n}`, label: label(n), n, run })),
	);
	const samples: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.id, []]));
	for (let r = 0; r < REPEATS; r++) {
		for (const v of variants) {
			const items = imageItems(ITEMS, `s3-${r}-${v.id}`);
			mock.reset();
			const started = process.hrtime.bigint();
			const out = await v.run(target, items, v.n);
			const seconds = Number(process.hrtime.bigint() - started) / 1e9;
			checkOutput(out, ITEMS, v.label);
			samples[v.id].push(round(ITEMS / seconds));
		}
	}
	const ips = Object.fromEntries(variants.map((v) => [v.id, median(samples[v.id])]));
	const ratios: Record<string, number> = {};
	for (const n of S3_LEVELS) {
		ratios[`a_over_h_${n}`] = round(ips[`a_${n}`] / ips[`h_${n}`], 2);
		ratios[`h_over_c_${n}`] = round(ips[`h_${n}`] / ips[`c_${n}`], 2);
		ratios[`a_over_c_${n}`] = round(ips[`a_${n}`] / ips[`c_${n}`], 2);
	}
	result.S3 = {
		latencyMs: S3_LATENCY_MS,
		variants: variants.map((v) => ({ id: v.id, label: v.label, itemsPerSecondMedian: ips[v.id], itemsPerSecondSamples: samples[v.id] })),
		ratios,
		target: 'a/h at 5 >= 0.9',
	};
	for (const v of variants) console.log(`  ${v.label.padEnd(64)} ${String(ips[v.id]).padStart(8)} items/s  [${samples[v.id].join(', ')}]`);
	console.log(`  this node / (h): ${S3_LEVELS.map((n) => `${ratios[`a_over_h_${n}`]} at ${n}`).join(', ')} (target at 5: >= 0.9)`);
}
