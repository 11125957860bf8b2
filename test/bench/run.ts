/**
 * `npm run bench`: defaults against defaults, in one process and one run, through n8n-core's real engine
 * and the project's mock service. Each scenario is its own file under scenarios/ (what it measures and
 * its targets are written there); every measured run starts as a fresh n8n process would, with nothing
 * learned about the service, unless the scenario measures what the process remembers (S5):
 *   S1  200 ms, no limit: this node vs HTTP Request vs raw undici (ITEMS items);
 *   S2  200 ms, token bucket 50/s with 429 + Retry-After (ITEMS items);
 *   S3  20 ms, the ceiling rows (ITEMS items);
 *   S4  600 one-item executions at once, token bucket 30/s;
 *   S5  two runs of 600 items back to back at 1 s and 3 s, against all at once;
 *   S6  600 items at 200 ms: sporadic 503/429 at random, and a full service;
 *   memory: 200 binary images of 10 MB at the defaults and at Fixed Concurrency 5, and 50 executions of
 *       10 such images at once beside one (child processes);
 *   bytes: the byte budget: 120 base64 images of 4 MB, and a one-image execution beside a bulk run (bytes.ts).
 *   send-path: one 1.4 MB POST by our transport and by HTTP Request's helper, alone and beside 40 others (sendPath.ts).
 * Traffic is seen at the service (each exchange's start, end and status), which is what the SVG chart
 * draws. Results: bench-results/bench.json and bench-results/bench.svg.
 *
 * Env: BENCH_ITEMS (1000), BENCH_REPEATS (S1 and S3 repeats, default 3; S2 runs once),
 *   queue-burst: 1000 callbacks at once on n8n's queue mode and on one regular n8n, side by side
 *       (queueBurst.ts; also written to bench-results/queue-burst.json).
 * BENCH_ONLY=S1,S2,S3,S4,S5,S6,T1,memory,bytes,send-path,n8n-cost,queue-burst (a subset; `npm run bench -- --only n8n-cost` says the same),
 * BENCH_SKIP_HTTP_REQUEST=1 (when the cached n8n install
 * is not there and should not be made).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ensureN8n, N8N_VERSION } from '../../dev/n8n/install';
import { startMockService } from '../../dev/mock/server';
import { renderChart, type Panel } from './chart';
import { ITEMS, memoryCheck, REPEATS, ROOT, TrafficLog, type BenchContext } from './harness';
import { s1 } from './scenarios/s1';
import { s2 } from './scenarios/s2';
import { s3 } from './scenarios/s3';
import { s4 } from './scenarios/s4';
import { s5 } from './scenarios/s5';
import { s6 } from './scenarios/s6';
import { n8nCost } from './n8nCost';
import { queueBurst } from './queueBurst';
import { imageItems, loadHttpRequestNode, nodesBaseDir, runUndici, type HttpRequestKit } from './workloads';
import { scenarioVariants } from './scenarios/variants';
import { onlyParts } from './only';

const ONLY = onlyParts(process.argv.slice(2), process.env.BENCH_ONLY);
const wanted = (part: string) => !ONLY || ONLY.includes(part);

/** The scenarios, in the order they run. */
const SCENARIOS: Array<[name: string, run: (ctx: BenchContext) => Promise<void>]> = [
	['S1', s1],
	['S2', s2],
	['S3', s3],
	['S4', s4],
	['S5', s5],
	['S6', s6],
];

async function httpRequestKit(): Promise<HttpRequestKit | undefined> {
	if (process.env.BENCH_SKIP_HTTP_REQUEST === '1') return undefined;
	if (!existsSync(join(nodesBaseDir(), 'package.json'))) {
		console.log(`n8n-nodes-base not cached at ${nodesBaseDir()}; installing n8n once (dev/n8n/install.ts)...`);
		await ensureN8n((line) => console.log(line));
	}
	return loadHttpRequestNode();
}

async function main() {
	const inProcess = SCENARIOS.some(([name]) => wanted(name));
	const kit = inProcess ? await httpRequestKit() : undefined;
	const result: Record<string, unknown> = {
		date: new Date().toISOString(),
		node: process.version,
		n8nVersion: N8N_VERSION,
		httpRequestNodeVersion: kit?.version ?? null,
		items: ITEMS,
		repeats: REPEATS,
	};
	const panels: Panel[] = [];

	if (inProcess) {
		const log = new TrafficLog();
		const mock = await startMockService({ latencyMs: 200, onExchange: log.observe });
		const target = { url: mock.url, token: mock.token };
		const ctx: BenchContext = { mock, log, target, kit, result, panels };
		try {
			// Warm-up: loads modules and JITs the hot paths of every variant.
			mock.configure({ latencyMs: 1 });
			for (const v of scenarioVariants(kit, target, false)) await v.run(imageItems(100, `warm-${v.id}`));
			await runUndici(target, imageItems(100, 'warm-undici'), 100);
			for (const [name, run] of SCENARIOS) if (wanted(name)) await run(ctx);
		} finally {
			await mock.stop();
		}
	}

	if (wanted('T1')) result.T1 = await (await import('./text')).textBench();
	if (wanted('memory')) {
		console.log('\nMemory: binary images of 10 MB through Image > Moderate (child processes, --expose-gc)...');
		const memory: Record<string, unknown> = {};
		// One run of 200 images at the defaults and at Fixed 5; 50 executions of 10 images at once beside one.
		for (const mode of ['default', 'fixed5', 'many', 'one'] as const) {
			memory[mode] = await memoryCheck(mode);
			console.log(`  ${String((memory[mode] as Record<string, unknown>).summary)}`);
		}
		result.memory = memory;
	}
	if (wanted('bytes')) result.bytes = await (await import('./bytes')).bytesBench();
	if (wanted('send-path')) result.sendPath = await (await import('./sendPath')).sendPathBench();

	// Real n8n, last: it owns the machine while it runs.
	const costLine = wanted('n8n-cost') ? await n8nCost({ result, panels }) : undefined;
	if (wanted('queue-burst')) result.queueBurst = await queueBurst();

	const outDir = join(ROOT, 'bench-results');
	mkdirSync(outDir, { recursive: true });
	writeFileSync(join(outDir, 'bench.json'), JSON.stringify(result, null, 2) + '\n');
	console.log(`\nWritten: ${join(outDir, 'bench.json')}`);
	if (panels.length > 0) {
		// Every exchange the chart draws, for a closer look at where time and 429s go.
		const traffic = panels.map((p) => ({ title: p.title, series: p.series.map((s) => ({ label: s.label, exchanges: s.exchanges })) }));
		writeFileSync(join(outDir, 'traffic.json'), JSON.stringify(traffic) + '\n');
		writeFileSync(join(outDir, 'bench.svg'), renderChart(panels));
		console.log(`Written: ${join(outDir, 'bench.svg')}`);
	}
	if (costLine) console.log(costLine);
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error instanceof Error ? error.stack : error);
		process.exit(1);
	},
);
