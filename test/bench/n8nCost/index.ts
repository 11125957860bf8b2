/**
 * n8n-cost: what a callback workflow built with this package costs n8n, against n8n's own Webhook and
 * HTTP Request doing the same job, in one real n8n (regular mode, SQLite) with the package installed from
 * its packed tarball, against the mock at 50 ms and no rate limit (workflows A-D: n8nCost/workflows.ts). Each run sends the same burst of
 * callbacks at once to one published workflow; workflows alternate (A B C, then C B A, ...) so that the
 * machine's drift falls on all of them alike. Per run: acknowledgements/s (at the sender), executions/s
 * (n8n's records: first start to last stop), CPU seconds and peak RSS of n8n's process tree (/proc).
 *
 * Env: BENCH_N8N_CALLBACKS (500), BENCH_N8N_CONNECTIONS (100), BENCH_N8N_PAIRS (3),
 * BENCH_N8N_VARIANTS (image,envelope,text), BENCH_N8N_WORKFLOWS (A,B,C,D), BENCH_N8N_LATENCY (50 ms),
 * BENCH_N8N_ENV (NAME=value,... for n8n, e.g. N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true),
 * BENCH_N8N_PROFILE=1 (a CPU profile of n8n per run through its inspector, saved under bench-results/,
 * summarised by package and function; heap in use sampled), BENCH_N8N_KEEP=1 (keep n8n's user folder).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { N8nDb } from '../../../dev/n8n/db';
import { ensureN8n, N8N_VERSION, PACKAGE_DIR } from '../../../dev/n8n/install';
import { teardownOnSignals, type Running } from '../../../dev/n8n/lifecycle';
import { buildAndPack, CREDENTIAL_TYPE, installIntoUserFolder, removeTarball } from '../../../dev/n8n/package';
import { createN8n, type N8nInstance } from '../../../dev/n8n/server';
import { CREDENTIAL_ID, CREDENTIAL_NAME, importIntoN8n, type Stack } from '../../../dev/n8n/stack';
import { startMockService, type MockService } from '../../../dev/mock/server';
import type { Exchange, Panel } from '../chart';
import { median, pause, ROOT } from '../harness';
import { sendBurst, type BurstResult } from './burst';
import { Inspector } from './inspector';
import { formatSummary, summarise, type ProfileSummary } from './profile';
import { TreeMonitor } from './proc';
import { costLine, executionsPerSecond, pairRatios, parseEnvList, type RunFigures } from './stats';
import { benchWorkflows, callbackBody, LABELS, VARIANTS, WORKFLOW_KEYS, type BenchWorkflow, type Variant, type WorkflowKey } from './workflows';

const CALLBACKS = Number(process.env.BENCH_N8N_CALLBACKS ?? 500);
const CONNECTIONS = Number(process.env.BENCH_N8N_CONNECTIONS ?? 100);
const PAIRS = Number(process.env.BENCH_N8N_PAIRS ?? 3);
const LATENCY_MS = Number(process.env.BENCH_N8N_LATENCY ?? 50);
const list = <T extends string>(text: string | undefined, all: T[]) =>
	text ? (text.split(',').map((s) => s.trim()).filter((s) => (all as string[]).includes(s)) as T[]) : all;
const WANTED_VARIANTS = list<Variant>(process.env.BENCH_N8N_VARIANTS, VARIANTS);
const WANTED_KEYS = list<WorkflowKey>(process.env.BENCH_N8N_WORKFLOWS, WORKFLOW_KEYS);
const N8N_ENV = parseEnvList(process.env.BENCH_N8N_ENV);
const PROFILE = process.env.BENCH_N8N_PROFILE === '1';
const OUT_DIR = join(ROOT, 'bench-results');
const COLORS: Record<WorkflowKey, string> = { A: '#d62728', B: '#1f77b4', C: '#2ca02c', D: '#9467bd' };

export interface CostRun extends RunFigures {
	variant: Variant;
	key: WorkflowKey;
	pair: number;
	burst: BurstResult;
	executions: { finished: number; success: number; seconds: number };
	startRssBytes: number;
	peakPerProcess: Array<{ pid: number; rssBytes: number; cpuSeconds: number }>;
	peakHeapUsedBytes?: number;
	profile?: { file: string; summary: ProfileSummary };
	exchanges: Exchange[];
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Service exchanges the workflows cause (GET /image/{id}, POST /text), in ms from `reset()`. */
class ServiceTraffic {
	exchanges: Exchange[] = [];
	private t0 = Date.now();
	reset(): void {
		this.exchanges = [];
		this.t0 = Date.now();
	}
	observe = (req: IncomingMessage, res: ServerResponse): void => {
		const counted = (req.method === 'GET' && req.url?.startsWith('/image/')) || (req.method === 'POST' && req.url === '/text');
		if (!counted) return;
		const start = Date.now() - this.t0;
		res.on('finish', () => this.exchanges.push({ start, end: Date.now() - this.t0, status: res.statusCode }));
	};
}

/** Deferred image moderations the callbacks name, processed before the first burst. */
async function createModerations(mock: MockService, count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i += 50) {
		const batch = Array.from({ length: Math.min(50, count - i) }, async (_, j) => {
			const res = await fetch(`${mock.url}/image`, {
				method: 'POST',
				headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ image: `https://example.com/cost/${i + j}.png`, options: { defer: true } }),
			});
			const body = (await res.json()) as { id?: string };
			if (!res.ok || typeof body.id !== 'string') throw new Error(`POST /image answered ${res.status}: ${JSON.stringify(body)}`);
			return body.id;
		});
		ids.push(...(await Promise.all(batch)));
	}
	return ids;
}

/** Whether the mock moderates texts (POST /text) and the built node has version 3 (Text > Moderate on it). */
async function textSupported(mock: MockService): Promise<string | undefined> {
	const res = await fetch(`${mock.url}/text`, {
		method: 'POST',
		headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' },
		body: JSON.stringify({ text: 'hello' }),
	}).catch(() => undefined);
	if (res?.status !== 200) return `the mock answers POST /text with ${res?.status ?? 'nothing'}`;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { ContentModeration } = require(join(PACKAGE_DIR, 'dist/nodes/ContentModeration/ContentModeration.node.js'));
	const versions = [new ContentModeration().description.version].flat();
	if (!versions.includes(3)) return `the action node has no version 3 (versions ${versions.join(', ')})`;
	return undefined;
}

async function publish(n8n: N8nInstance, id: string): Promise<void> {
	const r = await n8n.cli(['publish:workflow', `--id=${id}`]);
	if (r.code !== 0) throw new Error(`publish:workflow ${id} failed (${r.code}): ${(r.stdout + r.stderr).slice(-1500)}`);
}

/** Waits until n8n's tree uses under 10% of a core over a second (at most `maxMs`). */
async function settle(pid: number, maxMs = 15_000): Promise<void> {
	const t0 = Date.now();
	while (Date.now() - t0 < maxMs) {
		const m = new TreeMonitor(pid, 1_000_000);
		await pause(1000);
		if (m.stop().cpuSeconds < 0.1) return;
	}
}

export async function n8nCost(ctx: { result: Record<string, unknown>; panels: Panel[] }): Promise<string | undefined> {
	const log = (line: string) => console.log(`  ${line}`);
	console.log(
		`\nn8n-cost: n8n ${N8N_VERSION}, ${CALLBACKS} callbacks at once over ${CONNECTIONS} connections, ${PAIRS} pairs, ` +
			`mock at ${LATENCY_MS} ms, variants ${WANTED_VARIANTS.join(',')}, workflows ${WANTED_KEYS.join(',')}` +
			(Object.keys(N8N_ENV).length ? `, n8n env ${JSON.stringify(N8N_ENV)}` : '') +
			(PROFILE ? ', CPU profiles' : ''),
	);
	const traffic = new ServiceTraffic();
	const running: Running = {};
	const stopAll = teardownOnSignals(running, {
		keep: process.env.BENCH_N8N_KEEP === '1',
		log,
		onSignal: () => process.exit(130),
	});
	const runs: CostRun[] = [];
	const skipped: Record<string, string> = {};
	try {
		const mock = await startMockService({ latencyMs: LATENCY_MS, processMs: 10, record: false, onExchange: traffic.observe });
		running.mock = mock;
		await ensureN8n(log);
		// info: the line n8n prints once started is an info line.
		const env: Record<string, string> = { ...N8N_ENV };
		if (PROFILE) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:0`.trim();
		const n8n = await createN8n({ env, log });
		running.stack = { n8n, stop: () => n8n.stop() } as Stack;
		const tarball = await buildAndPack(log);
		await installIntoUserFolder(tarball, n8n.userFolder);
		removeTarball(tarball);

		const variants = [...WANTED_VARIANTS];
		if (variants.includes('text')) {
			const why = await textSupported(mock);
			if (why !== undefined) {
				skipped.text = why;
				variants.splice(variants.indexOf('text'), 1);
				log(`text variant skipped: ${why}`);
			}
		}
		const secret = `cost/${randomBytes(9).toString('hex')}`;
		const byVariant = new Map(
			variants.map((v) => [
				v,
				benchWorkflows(v, mock.url, mock.token, secret).filter((w) => WANTED_KEYS.includes(w.key)),
			]),
		);
		const all = [...byVariant.values()].flat();
		const credential = {
			id: CREDENTIAL_ID,
			name: CREDENTIAL_NAME,
			type: CREDENTIAL_TYPE,
			data: { baseUrl: mock.url, accessToken: mock.token, callbackSecret: secret },
		};
		log(`importing and publishing ${all.length} workflows...`);
		await importIntoN8n(n8n, [credential], all.map((w) => w.json));
		for (const w of all) await publish(n8n, w.id);
		await n8n.start();
		const pid = n8n.process!.pid!;
		const db = N8nDb.forUserFolder(n8n.userFolder);
		running.db = db;
		const inspector = PROFILE ? await Inspector.fromLog(n8n.logFile) : undefined;
		// Fresh moderations for every run: the trigger acknowledges a repeated delivery (same event and id)
		// without starting anything.
		const bodies = async (variant: Variant, count: number) =>
			(variant === 'text' ? Array.from({ length: count }, () => '') : await createModerations(mock, count)).map((id, i) =>
				callbackBody(variant, id, i),
			);
		const maxId = async () => Number((await db.all<{ id: number | null }>('SELECT MAX(id) AS id FROM execution_entity'))[0]?.id ?? 0);

		/** Waits until `expected` executions of `w` after `after` have finished; gives up after 60 s without progress. */
		const finished = async (w: BenchWorkflow, after: number, expected: number) => {
			let seen = -1;
			let lastProgress = Date.now();
			for (;;) {
				const rows = await db.all<{ status: string; startedAt: string | null; stoppedAt: string | null }>(
					'SELECT status, startedAt, stoppedAt FROM execution_entity WHERE workflowId = ? AND id > ?',
					[w.id, after],
				);
				const figures = executionsPerSecond(rows);
				if (figures.finished >= expected) return figures;
				if (figures.finished !== seen) {
					seen = figures.finished;
					lastProgress = Date.now();
				} else if (Date.now() - lastProgress > 60_000) {
					log(`${w.variant} ${w.key}: ${figures.finished}/${expected} executions finished, none for 60 s; going on`);
					return figures;
				}
				await pause(500);
			}
		};

		const measure = async (w: BenchWorkflow, pair: number, count: number, warm = false): Promise<CostRun | undefined> => {
			const callbacks = await bodies(w.variant, count);
			await settle(pid);
			const after = await maxId();
			traffic.reset();
			const monitor = new TreeMonitor(pid, 100);
			let heapPeak = 0;
			let heapTimer: NodeJS.Timeout | undefined;
			if (inspector && !warm) {
				await inspector.startProfile();
				heapTimer = setInterval(() => {
					void inspector.heapUsed().then((used) => (heapPeak = Math.max(heapPeak, used)), () => undefined);
				}, 500);
			}
			const burst = await sendBurst(n8n.url, `webhook/${w.path}`, callbacks, CONNECTIONS);
			const ex = await finished(w, after, burst.acknowledged);
			const usage = monitor.stop();
			clearInterval(heapTimer);
			if (warm) return undefined;
			const run: CostRun = {
				variant: w.variant,
				key: w.key,
				pair,
				burst,
				executions: { finished: ex.finished, success: ex.success, seconds: ex.seconds },
				executionsPerSecond: ex.perSecond,
				cpuSeconds: Number(usage.cpuSeconds.toFixed(2)),
				peakRssBytes: usage.peakRssBytes,
				startRssBytes: usage.startRssBytes,
				peakPerProcess: usage.peakPerProcess,
				exchanges: [...traffic.exchanges],
			};
			if (inspector) {
				const profile = await inspector.stopProfile();
				mkdirSync(OUT_DIR, { recursive: true });
				const file = join(OUT_DIR, `n8n-cost-${w.variant}-${w.key}-${pair}.cpuprofile`);
				writeFileSync(file, JSON.stringify(profile));
				run.peakHeapUsedBytes = heapPeak;
				run.profile = { file, summary: summarise(profile) };
			}
			const failed = Object.entries(burst.failures).map(([s, n]) => `${n} x ${s === '0' ? 'no answer' : s}`);
			log(
				`${w.variant} ${w.key} pair ${pair}: ${burst.acknowledged}/${burst.sent} acknowledged (${burst.perSecond}/s)` +
					`${failed.length ? ` [${failed.join(', ')}]` : ''}, ${ex.success}/${ex.finished} executions succeeded, ` +
					`${ex.perSecond} executions/s, CPU ${run.cpuSeconds} s, peak RSS ${mb(run.peakRssBytes)} MB ` +
					`(from ${mb(run.startRssBytes)} MB)${heapPeak ? `, V8 heap peak ${mb(heapPeak)} MB` : ''}`,
			);
			if (run.profile) console.log(formatSummary(`    profile ${run.profile.file}`, run.profile.summary, 8).join('\n    '));
			return run;
		};

		log('warm-up: 20 callbacks to each workflow...');
		for (const w of all) await measure(w, 0, Math.min(20, CALLBACKS), true);
		for (const variant of variants) {
			const workflows = byVariant.get(variant)!;
			for (let pair = 1; pair <= PAIRS; pair++) {
				const order = pair % 2 === 1 ? workflows : [...workflows].reverse();
				for (const w of order) runs.push((await measure(w, pair, CALLBACKS))!);
			}
		}
	} finally {
		await stopAll();
	}

	// Figures per variant: medians, and the per-pair ratios against B.
	const summary: Record<string, unknown> = {};
	const lines: string[] = [];
	let closing: string | undefined;
	for (const variant of VARIANTS) {
		const of = (key: WorkflowKey) => runs.filter((r) => r.variant === variant && r.key === key);
		if (of('B').length === 0) continue;
		const medians = Object.fromEntries(
			WORKFLOW_KEYS.filter((k) => of(k).length > 0).map((k) => [
				k,
				{
					label: LABELS[variant][k],
					acknowledgementsPerSecond: median(of(k).map((r) => r.burst.perSecond)),
					executionsPerSecond: median(of(k).map((r) => r.executionsPerSecond)),
					cpuSeconds: median(of(k).map((r) => r.cpuSeconds)),
					peakRssMB: mb(median(of(k).map((r) => r.peakRssBytes))),
				},
			]),
		);
		const ratios: Record<string, ReturnType<typeof pairRatios>> = {};
		for (const k of ['A', 'C', 'D'] as const) {
			if (of(k).length === 0) continue;
			ratios[`${k}/B`] = pairRatios(of(k), of('B'));
			const line = costLine(ratios[`${k}/B`], k, 'B');
			if (variant === 'image' && k === 'A') closing = line;
			else lines.push(`${variant}: ${line.replace(/^n8n cost: /, '')}`);
		}
		summary[variant] = { medians, ratios };
		ctx.panels.push({
			title: `n8n cost, ${variant}`,
			items: CALLBACKS,
			series: WORKFLOW_KEYS.filter((k) => of(k).length > 0).map((k) => ({
				label: `${LABELS[variant][k]} (pair ${of(k).at(-1)!.pair})`,
				color: COLORS[k],
				exchanges: of(k).at(-1)!.exchanges,
			})),
		});
	}
	ctx.result['n8n-cost'] = {
		n8nVersion: N8N_VERSION,
		callbacks: CALLBACKS,
		connections: CONNECTIONS,
		pairs: PAIRS,
		latencyMs: LATENCY_MS,
		n8nEnv: N8N_ENV,
		skipped,
		summary,
		runs: runs.map(({ exchanges: _e, ...r }) => r),
	};
	console.log('\nn8n-cost medians (ratios: median of per-pair ratios):');
	for (const [variant, s] of Object.entries(summary)) {
		for (const m of Object.values((s as { medians: Record<string, any> }).medians)) {
			console.log(
				`  ${variant} ${m.label}: ${m.acknowledgementsPerSecond} acks/s, ${m.executionsPerSecond} executions/s, ` +
					`CPU ${m.cpuSeconds} s, peak RSS ${m.peakRssMB} MB`,
			);
		}
	}
	for (const line of lines) console.log(`  ${line}`);
	return closing ?? (lines.length ? `n8n cost: ${lines[0]}` : undefined);
}
