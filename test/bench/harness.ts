/**
 * What every benchmark scenario shares: the traffic seen at the mock service, one measured run of one
 * variant (time, failed items, 429s and 503s, content submitted twice), the child process of the memory
 * check, and the context a scenario gets from run.ts.
 */
import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import type { MockService } from '../../dev/mock/server';
import { resetProcessState } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';
import type { Exchange, Panel } from './chart';
import { imageItems, type HttpRequestKit, type NodeRunOutcome, type Target } from './workloads';

export const ROOT = resolve(__dirname, '..', '..');
export const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
export const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);

export const round = (n: number, digits = 1) => Number(n.toFixed(digits));
export function median(values: number[]): number {
	const sorted = [...values].sort((x, y) => x - y);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every POST /image exchange the mock sees, in ms from `reset()`. */
export class TrafficLog {
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

/** What a scenario gets: the mock, its traffic, the HTTP Request node (when cached), where results go. */
export interface BenchContext {
	mock: MockService;
	log: TrafficLog;
	target: Target;
	kit: HttpRequestKit | undefined;
	result: Record<string, unknown>;
	panels: Panel[];
}

/** What one scenario run of one variant measured. */
export interface ScenarioResult {
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
	answered503: number;
	share503: number;
	submittedTwice: number;
	/** 429s while the limit is being found (the first 2 s) */
	answered429InFirst2s: number;
	peakInFlight: number;
	error?: string;
	exchanges: Exchange[];
}

export const strip = ({ exchanges: _e, ...rest }: ScenarioResult) => rest;

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

/**
 * One measured run of `items` (default ITEMS) items. Each run starts as a fresh n8n process would:
 * nothing learned about the service (pass `keepLearned` to measure what the process remembers).
 */
export async function runScenario(
	ctx: BenchContext,
	id: string,
	label: string,
	run: (items: INodeExecutionData[]) => Promise<NodeRunOutcome>,
	tag: string,
	options: { items?: number; keepLearned?: boolean } = {},
): Promise<ScenarioResult> {
	const { mock, log } = ctx;
	const count = options.items ?? ITEMS;
	const items = imageItems(count, tag);
	if (!options.keepLearned) resetProcessState();
	mock.reset();
	log.reset();
	const started = process.hrtime.bigint();
	const outcome = await run(items);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const exchanges = [...log.exchanges];
	const answered = (status: number) => exchanges.filter((e) => e.status === status).length;
	const twice = [...mock.submissions.entries()].filter(([key, n]) => key.startsWith('hash:') && n > 1).length;
	const failed = failedItems(outcome.out, count);
	const share = (n: number) => (exchanges.length ? round(n / exchanges.length, 3) : 0);
	const result: ScenarioResult = {
		id,
		label,
		seconds: round(seconds, 2),
		// Only items that came out as their own result count: a run that failed them moved nothing.
		itemsPerSecond: round((count - failed) / seconds),
		status: outcome.status,
		failedItems: failed,
		requests: exchanges.length,
		answered429: answered(429),
		share429: share(answered(429)),
		answered503: answered(503),
		share503: share(answered(503)),
		submittedTwice: twice,
		answered429InFirst2s: exchanges.filter((e) => e.status === 429 && e.end < 2000).length,
		peakInFlight: mock.traffic.peakInFlight,
		error: outcome.error,
		exchanges,
	};
	console.log(
		`  ${label}: ${result.seconds} s (${result.itemsPerSecond} items/s), ${result.failedItems} failed, ` +
			`${result.requests} requests, ${result.answered429} x 429 (${round(result.share429 * 100)}%), ` +
			`${result.answered503} x 503 (${round(result.share503 * 100)}%), ` +
			`${twice} submitted twice, peak ${result.peakInFlight} in flight${outcome.error ? `; error: ${outcome.error.slice(0, 100)}` : ''}`,
	);
	return result;
}

/** The memory check in a child with --expose-gc, so the baseline is taken after a full collection. */
export const memoryCheck = (mode: string) => childCheck('memory.ts', [mode]);

/** Runs `script` (in this folder) in a child with --expose-gc and resolves with the JSON line it prints last. */
export function childCheck(script: string, args: string[]): Promise<Record<string, unknown>> {
	return new Promise((res, rej) => {
		const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(__dirname, script), ...args], {
			cwd: ROOT,
			env: process.env,
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		child.stdout.on('data', (d: Buffer) => (out += d.toString()));
		child.on('error', rej);
		child.on('exit', (code) => {
			const line = out.trim().split('\n').pop() ?? '';
			if (code !== 0) return rej(new Error(`${script} ${args.join(' ')} exited ${code}: ${out.slice(-2000)}`));
			try {
				res(JSON.parse(line) as Record<string, unknown>);
			} catch {
				rej(new Error(`${script} printed no JSON: ${out.slice(-2000)}`));
			}
		});
	});
}
