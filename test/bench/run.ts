/**
 * `npm run bench`: throughput of Image > Moderate against the mock service (fixed 20 ms latency, 1000
 * URL items), in one process and one run, through n8n-core's real engine:
 *   (a) our node at its default concurrency, at HTTP Request's batch size, and higher;
 *   (b) n8n's HTTP Request node (same n8n version) as a user sets it up;
 *   (c) raw undici at the same parallelism (the floor of per-request cost);
 * and, to show where the gap between (a) and (c) goes:
 *   (c1) raw undici with a new connection per request, as n8n's HTTP client makes them;
 *   (h) n8n's HTTP client alone (what httpRequestWithAuthentication sends through), no engine or node.
 * Variants run interleaved, BENCH_REPEATS times (default 3); medians are reported. Then the memory
 * check runs in a child process (see memory.ts). Results: bench-results/bench.json.
 *
 * Env: BENCH_ITEMS (1000), BENCH_REPEATS (3), BENCH_LATENCY_MS (20), BENCH_SKIP_MEMORY=1,
 * BENCH_SKIP_HTTP_REQUEST=1 (when the cached n8n install is not there and should not be made),
 * BENCH_ONLY=a_default,c_default (a subset of variant ids, for quick looks).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../../nodes/ContentModeration/descriptions/requestOptions';
import { ensureN8n, N8N_VERSION } from '../../dev/n8n/install';
import { startMockService } from '../../dev/mock/server';
import {
	checkOutput,
	imageItems,
	loadHttpRequestNode,
	nodesBaseDir,
	runHttpRequestNode,
	runN8nHttpClient,
	runOurNode,
	runUndici,
	runUndiciNewConnection,
	type HttpRequestKit,
	type Target,
	type Workload,
} from './workloads';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
/** HTTP Request's Batching defaults (Items per Batch 50, Batch Interval 1000 ms). */
const HTTP_DEFAULT_BATCH = { batchSize: 50, batchInterval: 1000 };
/** "Equal parallelism": HTTP Request's default batch size, with the interval at 0 as the brief sets it. */
const EQUAL = HTTP_DEFAULT_BATCH.batchSize;
const HIGH = 100;
const ROOT = resolve(__dirname, '..', '..');

interface Variant {
	id: string;
	label: string;
	parallelism: number | 'unbounded';
	run: (target: Target, items: INodeExecutionData[]) => Promise<INodeExecutionData[]>;
}

function median(values: number[]): number {
	const sorted = [...values].sort((x, y) => x - y);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

async function httpRequestKit(): Promise<HttpRequestKit | undefined> {
	if (process.env.BENCH_SKIP_HTTP_REQUEST === '1') return undefined;
	if (!existsSync(join(nodesBaseDir(), 'package.json'))) {
		console.log(`n8n-nodes-base not cached at ${nodesBaseDir()}; installing n8n once (dev/n8n/install.ts)...`);
		await ensureN8n((line) => console.log(line));
	}
	return loadHttpRequestNode();
}

function memoryCheck(): Promise<Record<string, unknown>> {
	// A child with --expose-gc, so the baseline is taken after a full collection.
	return new Promise((res, rej) => {
		const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(__dirname, 'memory.ts')], {
			cwd: ROOT,
			env: process.env,
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		child.stdout.on('data', (d: Buffer) => (out += d.toString()));
		child.on('error', rej);
		child.on('exit', (code) => {
			const line = out.trim().split('\n').pop() ?? '';
			if (code !== 0) return rej(new Error(`memory check exited ${code}: ${out.slice(-2000)}`));
			try {
				res(JSON.parse(line) as Record<string, unknown>);
			} catch {
				rej(new Error(`memory check printed no JSON: ${out.slice(-2000)}`));
			}
		});
	});
}

async function main() {
	const kit = await httpRequestKit();
	const mock = await startMockService({ latencyMs: LATENCY_MS, record: false });
	const target: Target = { url: mock.url, token: mock.token };

	const variants: Variant[] = [];
	const levels = [
		[DEFAULT_CONCURRENCY, 'default', ' (default)'],
		[EQUAL, 'equal', ''],
		[HIGH, 'high', ''],
	] as const;
	// One row per way of sending, each at every level of parallelism.
	const rows: Array<[row: string, label: (n: number, note: string) => string, run: Workload]> = [
		['a', (n, note) => `(a) Content Moderation node, concurrency ${n}${note}`, runOurNode],
		['c', (n) => `(c) raw undici Pool, ${n} in flight`, runUndici],
		['c1', (n) => `(c1) raw undici, new connection per request, ${n} in flight`, runUndiciNewConnection],
		['h', (n) => `(h) n8n's HTTP client alone, ${n} in flight`, runN8nHttpClient],
	];
	for (const [row, label, run] of rows) {
		for (const [n, id, note] of levels) {
			variants.push({ id: `${row}_${id}`, label: label(n, note), parallelism: n, run: (t, items) => run(t, items, n) });
		}
	}
	if (kit) {
		variants.push(
			{
				id: 'b_equal',
				label: `(b) HTTP Request ${kit.version}, Items per Batch ${EQUAL}, Batch Interval 0`,
				// With interval 0 HTTP Request never waits, so every request is in flight at once.
				parallelism: 'unbounded',
				run: (t, items) => runHttpRequestNode(kit, t, items, { batchSize: EQUAL, batchInterval: 0 }),
			},
			{
				id: 'b_default',
				label: `(b) HTTP Request ${kit.version}, Batching at its defaults (${HTTP_DEFAULT_BATCH.batchSize} per ${HTTP_DEFAULT_BATCH.batchInterval} ms)`,
				parallelism: HTTP_DEFAULT_BATCH.batchSize,
				run: (t, items) => runHttpRequestNode(kit, t, items, HTTP_DEFAULT_BATCH),
			},
		);
	}

	const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
	if (only) variants.splice(0, variants.length, ...variants.filter((v) => only.includes(v.id)));
	const samples: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.id, []]));
	try {
		// Warm-up: loads modules, JITs the hot paths and opens connections for every variant.
		for (const v of variants) {
			const items = imageItems(Math.min(ITEMS, 100), `warm-${v.id}`);
			checkOutput(await v.run(target, items), items.length, v.label);
		}
		for (let r = 0; r < REPEATS; r++) {
			for (const v of variants) {
				const items = imageItems(ITEMS, `r${r}-${v.id}`);
				const started = process.hrtime.bigint();
				const out = await v.run(target, items);
				const seconds = Number(process.hrtime.bigint() - started) / 1e9;
				checkOutput(out, ITEMS, v.label);
				samples[v.id].push(ITEMS / seconds);
				console.log(`  repeat ${r + 1}/${REPEATS}  ${v.label}: ${round(ITEMS / seconds)} items/s`);
			}
		}
	} finally {
		await mock.stop();
	}

	const itemsPerSecond = Object.fromEntries(variants.map((v) => [v.id, round(median(samples[v.id]))]));
	const ratio = (x: string, y: string) =>
		itemsPerSecond[x] !== undefined && itemsPerSecond[y] ? round(itemsPerSecond[x] / itemsPerSecond[y], 2) : null;
	const ratios: Record<string, number | null> = {
		a_equal_over_b_equal: ratio('a_equal', 'b_equal'),
		a_high_over_b_equal: ratio('a_high', 'b_equal'),
		a_equal_over_b_default: ratio('a_equal', 'b_default'),
		a_high_over_b_default: ratio('a_high', 'b_default'),
	};
	// Per level: our node against undici, and where that gap goes (n8n's HTTP client against undici, our
	// node against that client).
	for (const [x, y] of [['a', 'c'], ['h', 'c'], ['a', 'h']]) {
		for (const [, id] of levels) ratios[`${x}_${id}_over_${y}_${id}`] = ratio(`${x}_${id}`, `${y}_${id}`);
	}

	console.log(`\nThroughput, ${ITEMS} image items (URL input), mock latency ${LATENCY_MS} ms, median of ${REPEATS}:`);
	for (const v of variants) {
		console.log(`  ${v.label.padEnd(78)} ${String(itemsPerSecond[v.id]).padStart(8)} items/s`);
	}
	console.log('Ratios:');
	for (const [k, value] of Object.entries(ratios)) console.log(`  ${k.padEnd(28)} ${value ?? 'n/a'}`);
	const ceilings = levels.map(([, id]) => ratios[`h_${id}_over_c_${id}`]);
	if (ceilings.some((x) => x !== null)) {
		console.log(
			`A node that sends through n8n's HTTP helpers cannot beat n8n's HTTP client alone: a/c is bounded by h/c = ` +
				`${ceilings.map((x) => x ?? 'n/a').join(' / ')} at ${levels.map(([n]) => n).join(' / ')} in flight.`,
		);
	}

	let memory: Record<string, unknown> | undefined;
	if (process.env.BENCH_SKIP_MEMORY !== '1') {
		console.log('\nMemory: 20 MB binary image through Image > Moderate (child process, --expose-gc)...');
		memory = await memoryCheck();
		console.log(`  ${String(memory.summary)}`);
		console.log(`  method: ${String(memory.method)}`);
	}

	const result = {
		date: new Date().toISOString(),
		node: process.version,
		n8nVersion: N8N_VERSION,
		httpRequestNodeVersion: kit?.version ?? null,
		items: ITEMS,
		repeats: REPEATS,
		latencyMs: LATENCY_MS,
		variants: variants.map((v) => ({
			id: v.id,
			label: v.label,
			parallelism: v.parallelism,
			itemsPerSecondMedian: itemsPerSecond[v.id],
			itemsPerSecondSamples: samples[v.id].map((n) => round(n)),
		})),
		ratios,
		memory: memory ?? null,
	};
	const outDir = join(ROOT, 'bench-results');
	mkdirSync(outDir, { recursive: true });
	writeFileSync(join(outDir, 'bench.json'), JSON.stringify(result, null, 2) + '\n');
	console.log(`\nWritten: ${join(outDir, 'bench.json')}`);
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error instanceof Error ? error.stack : error);
		process.exit(1);
	},
);
