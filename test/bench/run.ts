/**
 * `npm run bench`: defaults against defaults, in one process and one run, through n8n-core's real engine
 * and the project's mock service (1000 image URL items unless BENCH_ITEMS says otherwise):
 *   S1  200 ms latency, no limit: this node's default vs n8n's HTTP Request at its defaults (no Batching
 *       option: V3 sends every item at once) vs raw undici sending all at once;
 *   S2  200 ms latency, a token bucket of 50 requests/s (bucket of 50) answered with 429 + Retry-After:
 *       this node's default vs the limit N/R vs HTTP Request at its defaults, and with its node setting
 *       Retry On Fail on (n8n's defaults: 3 tries, 1000 ms apart); time, failed items, share of 429s,
 *       content submitted twice;
 *   S3  20 ms latency, the ceiling rows: this node at Fixed Concurrency 5/50/100, raw undici (keep-alive
 *       and a new connection per request) and n8n's HTTP client alone at the same parallelism; then
 *       memory: 200 binary images of 10 MB at the defaults and at Fixed Concurrency 5 (child processes).
 * Traffic is seen at the service (each exchange's start, end and status), which is what the SVG chart
 * draws. Results: bench-results/bench.json and bench-results/bench.svg.
 *
 * Env: BENCH_ITEMS (1000), BENCH_REPEATS (S1 and S3 repeats, default 3; S2 runs once),
 * BENCH_ONLY=S1,S2,S3,memory (a subset), BENCH_SKIP_HTTP_REQUEST=1 (when the cached n8n install is not
 * there and should not be made).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import { ensureN8n, N8N_VERSION } from '../../dev/n8n/install';
import { startMockService, type MockService } from '../../dev/mock/server';
import { DEFAULT_MAX_CONCURRENCY } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/descriptions/requestOptions';
import { renderChart, type Exchange, type Panel, type Series } from './chart';
import {
	checkOutput,
	imageItems,
	loadHttpRequestNode,
	nodesBaseDir,
	runHttpRequestNodeWith,
	runN8nHttpClient,
	runOurNode,
	runOurNodeWith,
	runUndici,
	runUndiciNewConnection,
	type HttpRequestKit,
	type NodeRunOutcome,
	type Target,
	type Workload,
} from './workloads';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wanted = (part: string) => !ONLY || ONLY.includes(part);
const ROOT = resolve(__dirname, '..', '..');

const S_LATENCY_MS = 200;
const S2_RATE = 50;
const S2_BURST = 50;
const S3_LATENCY_MS = 20;
const S3_LEVELS = [5, 50, 100] as const;

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
function median(values: number[]): number {
	const sorted = [...values].sort((x, y) => x - y);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function httpRequestKit(): Promise<HttpRequestKit | undefined> {
	if (process.env.BENCH_SKIP_HTTP_REQUEST === '1') return undefined;
	if (!existsSync(join(nodesBaseDir(), 'package.json'))) {
		console.log(`n8n-nodes-base not cached at ${nodesBaseDir()}; installing n8n once (dev/n8n/install.ts)...`);
		await ensureN8n((line) => console.log(line));
	}
	return loadHttpRequestNode();
}

/** Every POST /image exchange the mock sees, in ms from `reset()`. */
class TrafficLog {
	exchanges: Exchange[] = [];
	private t0 = Date.now();
	reset(): void {
		this.exchanges = [];
		this.t0 = Date.now();
	}
	observe = (req: { method?: string; url?: string }, res: ServerResponse): void => {
		if (req.method !== 'POST' || !req.url?.startsWith('/image')) return;
		const start = Date.now() - this.t0;
		res.on('finish', () => this.exchanges.push({ start, end: Date.now() - this.t0, status: res.statusCode }));
	};
}

/** What one scenario run of one variant measured. */
interface ScenarioResult {
	id: string;
	label: string;
	seconds: number;
	/** items that came out as their own result, per second */
	itemsPerSecond: number;
	status: string;
	failedItems: number;
	requests: number;
	answered429: number;
	share429: number;
	submittedTwice: number;
	/** 429s while the limit is being found (the first 2 s) */
	answered429InFirst2s: number;
	peakInFlight: number;
	error?: string;
	exchanges: Exchange[];
}

/** Items whose output is not a moderation result of that very item (paired, with a hash). */
function failedItems(out: INodeExecutionData[], count: number): number {
	let ok = 0;
	for (let i = 0; i < out.length; i++) {
		const pairedItem = out[i].pairedItem;
		const paired = Array.isArray(pairedItem) ? pairedItem[0] : pairedItem;
		const index = typeof paired === 'number' ? paired : paired?.item;
		if (index === i && typeof out[i].json.hash === 'string') ok++;
	}
	return count - ok;
}

async function runScenario(
	mock: MockService,
	log: TrafficLog,
	id: string,
	label: string,
	run: (items: INodeExecutionData[]) => Promise<NodeRunOutcome>,
	tag: string,
): Promise<ScenarioResult> {
	const items = imageItems(ITEMS, tag);
	mock.reset();
	log.reset();
	const started = process.hrtime.bigint();
	const outcome = await run(items);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const exchanges = [...log.exchanges];
	const answered429 = exchanges.filter((e) => e.status === 429).length;
	const twice = [...mock.submissions.entries()].filter(([key, n]) => key.startsWith('hash:') && n > 1).length;
	const failed = failedItems(outcome.out, ITEMS);
	const result: ScenarioResult = {
		id,
		label,
		seconds: round(seconds, 2),
		// Only items that came out as their own result count: a run that failed them moved nothing.
		itemsPerSecond: round((ITEMS - failed) / seconds),
		status: outcome.status,
		failedItems: failed,
		requests: exchanges.length,
		answered429,
		share429: exchanges.length ? round(answered429 / exchanges.length, 3) : 0,
		submittedTwice: twice,
		answered429InFirst2s: exchanges.filter((e) => e.status === 429 && e.end < 2000).length,
		peakInFlight: mock.traffic.peakInFlight,
		error: outcome.error,
		exchanges,
	};
	console.log(
		`  ${label}: ${result.seconds} s (${result.itemsPerSecond} items/s), ${result.failedItems} failed, ` +
			`${result.requests} requests, ${answered429} x 429 (${round(result.share429 * 100)}%), ` +
			`${twice} submitted twice, peak ${result.peakInFlight} in flight${outcome.error ? `; error: ${outcome.error.slice(0, 100)}` : ''}`,
	);
	return result;
}

function memoryCheck(mode: 'default' | 'fixed5'): Promise<Record<string, unknown>> {
	// A child with --expose-gc, so the baseline is taken after a full collection.
	return new Promise((res, rej) => {
		const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(__dirname, 'memory.ts'), mode], {
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

/** S1 and S2 variants, labelled by the settings they run with. */
function scenarioVariants(kit: HttpRequestKit | undefined, target: Target, withRetryOnFail: boolean) {
	const variants: Array<{ id: string; label: string; color: string; run: (items: INodeExecutionData[]) => Promise<NodeRunOutcome> }> = [
		{
			id: 'node_default',
			label: `Content Moderation node, default settings (adaptive, Max Concurrency ${DEFAULT_MAX_CONCURRENCY})`,
			color: '#1f6feb',
			run: (items) => runOurNodeWith(target, items, {}),
		},
	];
	if (kit) {
		variants.push({
			id: 'http_default',
			label: `HTTP Request ${kit.version}, default settings (no Batching option: all items at once)`,
			color: '#e8710a',
			run: (items) => runHttpRequestNodeWith(kit, target, items),
		});
		if (withRetryOnFail) {
			variants.push({
				id: 'http_retry_on_fail',
				label: `HTTP Request ${kit.version}, node setting Retry On Fail on (3 tries, 1000 ms apart)`,
				color: '#a34fd1',
				run: (items) => runHttpRequestNodeWith(kit, target, items, undefined, { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 }),
			});
		}
	}
	return variants;
}

async function main() {
	const kit = await httpRequestKit();
	const log = new TrafficLog();
	const mock = await startMockService({ latencyMs: S_LATENCY_MS, onExchange: log.observe });
	const target: Target = { url: mock.url, token: mock.token };
	const result: Record<string, unknown> = {
		date: new Date().toISOString(),
		node: process.version,
		n8nVersion: N8N_VERSION,
		httpRequestNodeVersion: kit?.version ?? null,
		items: ITEMS,
		repeats: REPEATS,
	};
	const panels: Panel[] = [];
	const strip = ({ exchanges: _e, ...rest }: ScenarioResult) => rest;

	try {
		// Warm-up: loads modules and JITs the hot paths of every variant.
		mock.configure({ latencyMs: 1 });
		for (const v of scenarioVariants(kit, target, false)) {
			const items = imageItems(100, `warm-${v.id}`);
			await v.run(items);
		}
		await runUndici(target, imageItems(100, 'warm-undici'), 100);

		if (wanted('S1')) {
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
				for (const v of variants) runs[v.id].push(await runScenario(mock, log, v.id, v.label, v.run, `s1-${r}-${v.id}`));
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

		if (wanted('S2')) {
			const limitSeconds = ITEMS / S2_RATE;
			console.log(`\nS2: ${ITEMS} items, ${S_LATENCY_MS} ms latency, token bucket ${S2_RATE}/s (bucket ${S2_BURST}), 429 + Retry-After; N/R = ${limitSeconds} s`);
			mock.configure({ latencyMs: S_LATENCY_MS, rateLimit: S2_RATE, rateLimitBurst: S2_BURST });
			const variants = scenarioVariants(kit, target, true);
			const runs: ScenarioResult[] = [];
			for (const v of variants) {
				runs.push(await runScenario(mock, log, v.id, v.label, v.run, `s2-${v.id}`));
				// Let the bucket fill again so every variant starts alike.
				await new Promise((r) => setTimeout(r, 1500));
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

		if (wanted('S3')) {
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
	} finally {
		await mock.stop();
	}

	if (wanted('T1')) result.T1 = await (await import('./text')).textBench();
	if (wanted('memory')) {
		console.log('\nMemory: 200 binary images of 10 MB through Image > Moderate (child processes, --expose-gc)...');
		const memory: Record<string, unknown> = {};
		for (const mode of ['default', 'fixed5'] as const) {
			memory[mode] = await memoryCheck(mode);
			console.log(`  ${String((memory[mode] as Record<string, unknown>).summary)}`);
		}
		result.memory = memory;
	}

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
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error instanceof Error ? error.stack : error);
		process.exit(1);
	},
);
