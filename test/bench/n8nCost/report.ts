/** The n8n-cost bench's figures: medians per workflow, per-pair ratios against B, the chart panels. */
import type { Exchange, Panel } from '../chart';
import { median } from '../harness';
import type { BurstResult } from './burst';
import type { ProfileSummary } from './profile';
import { costLine, pairRatios, type RunFigures } from './stats';
import { LABELS, VARIANTS, WORKFLOW_KEYS, type Variant, type WorkflowKey } from './workflows';
import { CALLBACKS, CONNECTIONS, LATENCY_MS, N8N_ENV, PAIRS } from './settings';
import { N8N_VERSION } from '../../../dev/n8n/install';

/** One burst of one workflow, as the bench measured it. */
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

const COLORS: Record<WorkflowKey, string> = { A: '#d62728', A0: '#ff7f0e', B: '#1f77b4', C: '#2ca02c', D: '#9467bd' };
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

export function report(
	ctx: { result: Record<string, unknown>; panels: Panel[] },
	runs: CostRun[],
	skipped: Record<string, string>,
): string | undefined {
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
		// A/A0: the package's trigger against the barest community trigger, both before the same Image > Get.
		for (const [x, y] of [['A', 'B'], ['A0', 'B'], ['A', 'A0'], ['C', 'B'], ['D', 'B']] as const) {
			if (of(x).length === 0 || of(y).length === 0) continue;
			ratios[`${x}/${y}`] = pairRatios(of(x), of(y));
			const line = costLine(ratios[`${x}/${y}`], x, y);
			if (variant === 'image' && x === 'A' && y === 'B') closing = line;
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
