/**
 * A burst from a webhook sender as services send them (each completion tried up to 3 times, an attempt
 * given up after 5 s) and what n8n did with it: the sender's log, the executions, and the requests n8n
 * turned away itself before any node ran (its log). Used by cases 43/44 and their queue-mode runs.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { QueueStack } from '../../../dev/n8n/queue';
import { sleep, waitFor } from '../../../dev/wait';
import type { E2eContext } from '../context';

export interface Attempt {
	completion: number;
	attempt: number;
	startedAt: number;
	ms: number;
	status?: number;
	body?: unknown;
	error?: string;
}

/** A webhook sender: each completion tried up to `attempts` times, an attempt given up after `timeoutMs`. */
export async function retryingSend(url: string, bodies: unknown[], attempts = 3, timeoutMs = 5_000, pauseMs = 1_000) {
	const log: Attempt[] = [];
	const t0 = Date.now();
	await Promise.all(
		bodies.map(async (body, completion) => {
			for (let attempt = 1; attempt <= attempts; attempt++) {
				const startedAt = Date.now();
				const entry: Attempt = { completion, attempt, startedAt: startedAt - t0, ms: 0 };
				log.push(entry);
				try {
					const res = await fetch(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json', 'x-completion': String(completion), 'x-attempt': String(attempt) },
						body: JSON.stringify(body),
						signal: AbortSignal.timeout(timeoutMs),
					});
					entry.status = res.status;
					const text = await res.text();
					try {
						entry.body = JSON.parse(text);
					} catch {
						entry.body = text;
					}
				} catch (e) {
					entry.error = (e as Error).name;
				}
				entry.ms = Date.now() - startedAt;
				if (entry.status !== undefined && entry.status < 300) return;
				await sleep(pauseMs);
			}
		}),
	);
	return log;
}

export function percentile(values: number[], p: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function summarise(label: string, count: number, log: Attempt[], executions: number, distinct: number) {
	const first = log.filter((a) => a.attempt === 1);
	const inTime = first.filter((a) => a.status !== undefined && a.status < 300).length;
	const acknowledged = new Set(log.filter((a) => a.status !== undefined && a.status < 300).map((a) => a.completion)).size;
	const ok = log.filter((a) => a.status !== undefined && a.status < 300).map((a) => a.ms);
	const duplicatesAnswered = log.filter((a) => (a.body as { duplicate?: boolean } | undefined)?.duplicate === true).length;
	return {
		line: `${label}: first attempt acknowledged in time ${inTime}/${count}, acknowledged at all ${acknowledged}/${count}, attempts ${log.length}, answered duplicate ${duplicatesAnswered}, ack ms p50 ${percentile(ok, 50)} p95 ${percentile(ok, 95)} max ${percentile(ok, 100)}; executions ${executions} for ${distinct} distinct completions`,
		acknowledged,
	};
}

export function imageCompletion(i: number, tag: string) {
	return {
		event: 'moderation.completed',
		data: {
			id: randomUUID(),
			isSafe: i % 3 !== 0,
			confidence: 90,
			description: `Mock image ${tag}-${i}`,
			summary: { totalFlags: i % 3 === 0 ? 1 : 0, contentRating: 'G', language: 'en', profanity: false },
			riskScores: { overall: 5 },
			topics: [],
			nsfwCategories: [],
			suggestedActions: { reject: i % 3 === 0, review: false },
			hash: `h-${tag}-${i}`,
			meta: { n: i },
		},
	};
}

/**
 * What n8n answered itself, before any node ran, as its log records it: a request whose sender had gone
 * while it waited ("Request body stream was aborted"), one refused while n8n took its database for down
 * (503 "Database is not ready!", logged without a path: only the sender runs while this is counted).
 */
export function n8nRejections(ctx: E2eContext, fromByte: number, webhookPath: string) {
	const text = readFileSync(webhookLogFile(ctx)).subarray(fromByte).toString('utf-8');
	const lines = text.split('\n');
	const handlingErrors = lines.filter((l) => l.includes(`Error in handling webhook request POST /webhook/${webhookPath}`));
	const bodyAborted = handlingErrors.filter((l) => l.includes('Request body stream was aborted')).length;
	const dbNotReady = lines.filter((l) => l.includes('503 Database is not ready!')).length;
	return { bodyAborted, dbNotReady, otherErrors: handlingErrors.length - bodyAborted, total: handlingErrors.length + dbNotReady };
}

/** The log of the process that takes production webhooks: in queue mode the webhook processor, not main. */
function webhookLogFile(ctx: E2eContext): string {
	return (ctx.stack as Partial<QueueStack>).webhook?.logFile ?? ctx.stack.n8n.logFile;
}

function logSize(ctx: E2eContext): number {
	return statSync(webhookLogFile(ctx)).size;
}

/**
 * Waits until the workflow's executions are all finished and neither they nor n8n's own rejections
 * have changed for `quietMs`: n8n goes on handling requests whose sender gave up, and a request can
 * wait in n8n longer than the sender's 5 s (11 s measured under a 200 burst), so the window is longer.
 * Up to 10 minutes: a regular-mode n8n ran the fast path's 600 attempts for 200 completions for over 5
 * minutes on a loaded 2-core machine.
 */
export async function settled(ctx: E2eContext, workflowId: string, before: number, atLeast: number, quietMs = 4_000, watch?: () => number) {
	let last = '';
	let since = Date.now();
	return await waitFor(`executions of ${workflowId} to settle`, async () => {
		const all = await ctx.db.executions(workflowId);
		const finished = all.filter((r) => !['new', 'running', 'waiting'].includes(r.status)).length;
		const state = `${all.length}/${finished}/${watch?.() ?? ''}`;
		if (state !== last) {
			last = state;
			since = Date.now();
		}
		return all.length - before >= atLeast && finished === all.length && Date.now() - since >= quietMs ? all.slice(before) : undefined;
	}, 600_000, 500);
}

/** How long n8n's executions and own rejections must stay unchanged after a burst: see `settled`. */
const BURST_QUIET_MS = 15_000;

function webhookPathOf(url: string): string {
	return new URL(url).pathname.replace(/^\/webhook\//, '');
}

/** Sends `bodies` with the retrying sender and waits until n8n has handled every request it got. */
export async function burst(ctx: E2eContext, url: string, workflowId: string, bodies: unknown[]) {
	const before = (await ctx.db.executions(workflowId)).length;
	const logFrom = logSize(ctx);
	const log = await retryingSend(url, bodies);
	if (process.env.E2E_TRACE_DIR) writeFileSync(join(process.env.E2E_TRACE_DIR, `sender-${workflowId}.json`), JSON.stringify({ bodies, log }));
	const path = webhookPathOf(url);
	const rows = await settled(ctx, workflowId, before, 1, BURST_QUIET_MS, () => n8nRejections(ctx, logFrom, path).total);
	return { log, rows, before, rejected: n8nRejections(ctx, logFrom, path) };
}
