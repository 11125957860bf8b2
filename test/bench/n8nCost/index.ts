/**
 * n8n-cost: what a callback workflow built with this package costs n8n, against n8n's own Webhook and
 * HTTP Request doing the same job, in one real n8n (regular mode, SQLite) with the package installed from
 * its packed tarball, against the mock at 50 ms and no rate limit (workflows A-D: n8nCost/workflows.ts). Each run sends the same burst of
 * callbacks at once to one published workflow; workflows alternate (A B C, then C B A, ...) so that the
 * machine's drift falls on all of them alike. Per run: acknowledgements/s (at the sender), executions/s
 * (n8n's records: first start to last stop), CPU seconds and peak RSS of n8n's process tree (/proc).
 *
 * Settings: n8nCost/settings.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8nDb } from '../../../dev/n8n/db';
import { ensureN8n, N8N_VERSION } from '../../../dev/n8n/install';
import { teardownOnSignals, type Running } from '../../../dev/n8n/lifecycle';
import { CREDENTIAL_TYPE, installPackage } from '../../../dev/n8n/package';
import { createN8n } from '../../../dev/n8n/server';
import { CREDENTIAL_ID, CREDENTIAL_NAME, importIntoN8n, type Stack } from '../../../dev/n8n/stack';
import { startMockService } from '../../../dev/mock/server';
import type { Panel } from '../chart';
import { pause } from '../harness';
import { sendBurst } from './burst';
import { Inspector } from './inspector';
import { formatSummary, summarise } from './profile';
import { TreeMonitor } from './proc';
import { report, type CostRun } from './report';
import { CALLBACKS, CONNECTIONS, LATENCY_MS, N8N_ENV, OUT_DIR, PAIRS, PROFILE, WANTED_KEYS, WANTED_VARIANTS } from './settings';
import { createModerations, installBareTrigger, publish, ServiceTraffic, settle, textSupported } from './setup';
import { executionsPerSecond } from './stats';
import { benchWorkflows, callbackBody, type BenchWorkflow, type Variant, type WorkflowKey } from './workflows';

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

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
		await installPackage(n8n.userFolder, log);
		if (WANTED_KEYS.includes('A0')) installBareTrigger(n8n.userFolder);

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

	return report(ctx, runs, skipped);
}
