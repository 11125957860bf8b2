/**
 * S4 many executions: 600 executions of one item each, started at once in one process (as n8n runs
 * webhook-triggered workflows), a token bucket of 30 requests/s (bucket of 30) answered 429 +
 * Retry-After, 200 ms latency. This node at its defaults (one limiter for the process) beside Fixed
 * Concurrency 5 in every execution (each on its own, as every run was before) and HTTP Request at its
 * defaults. Targets: 0 failed executions, <= 1.3 x N/R, <= 10% of requests answered 429.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { pause, round, runScenario, strip, type BenchContext } from '../harness';
import { runHttpRequestNodeWith, runOurNodeWith, type NodeRunOutcome } from '../workloads';
import { S_LATENCY_MS } from './s1';

const EXECUTIONS = 600;
const RATE = 30;

/** One execution per item, all started at once; output i is execution i's result (paired to i). */
async function manyExecutions(
	items: INodeExecutionData[],
	runOne: (item: INodeExecutionData) => Promise<NodeRunOutcome>,
): Promise<NodeRunOutcome & { failedExecutions: number }> {
	const runs = await Promise.all(items.map((item) => runOne(item)));
	const failed = runs.filter((r) => r.status !== 'success');
	const out = runs.map((r, i): INodeExecutionData => ({ json: r.out[0]?.json ?? {}, pairedItem: { item: i } }));
	return { status: failed.length ? 'error' : 'success', out, error: failed[0]?.error, failedExecutions: failed.length };
}

export async function s4(ctx: BenchContext): Promise<void> {
	const { mock, target, kit, result } = ctx;
	const limitSeconds = EXECUTIONS / RATE;
	console.log(`\nS4: ${EXECUTIONS} executions of 1 item at once, ${S_LATENCY_MS} ms, token bucket ${RATE}/s, 429 + Retry-After; N/R = ${limitSeconds} s`);
	mock.configure({ latencyMs: S_LATENCY_MS, rateLimit: RATE, rateLimitBurst: RATE });
	const variants: Array<{ id: string; label: string; runOne: (item: INodeExecutionData) => Promise<NodeRunOutcome> }> = [
		{ id: 'node_default', label: 'Content Moderation node, default settings (one limiter per process)', runOne: (item) => runOurNodeWith(target, [item], {}) },
		{ id: 'node_fixed5', label: 'Content Moderation node, Fixed Concurrency 5 (per execution)', runOne: (item) => runOurNodeWith(target, [item], { concurrency: 5 }) },
	];
	if (kit) variants.push({ id: 'http_default', label: `HTTP Request ${kit.version}, default settings`, runOne: (item) => runHttpRequestNodeWith(kit, target, [item]) });
	const rows = [];
	for (const v of variants) {
		let failedExecutions = 0;
		const run = await runScenario(ctx, v.id, v.label, async (items) => {
			const outcome = await manyExecutions(items, v.runOne);
			failedExecutions = outcome.failedExecutions;
			return outcome;
		}, `s4-${v.id}`, { items: EXECUTIONS });
		console.log(`    failed executions: ${failedExecutions} of ${EXECUTIONS}`);
		rows.push({ ...strip(run), failedExecutions, overLimit: round(run.seconds / limitSeconds, 2) });
		await pause(1500);
	}
	const node = rows[0];
	const met = node.failedExecutions === 0 && node.overLimit <= 1.3 && node.share429 <= 0.1;
	result.S4 = { executions: EXECUTIONS, rate: RATE, latencyMs: S_LATENCY_MS, limitSeconds, variants: rows, target: '0 failed executions, <= 1.3 x N/R, <= 10% 429', met };
	console.log(`  node: ${node.failedExecutions} failed executions, ${node.overLimit} x N/R (target <= 1.3), 429 share ${round(node.share429 * 100)}% (target <= 10%) -> ${met ? 'met' : 'NOT met'}`);
}
