/**
 * Case 16 (queue suite: case 29): COUNT callbacks at once to a published trigger whose workflow reads each
 * result with Image > Get from a service limited to 20 requests/s (a token bucket of 20, 429 + Retry-After).
 * Every callback acknowledged, exactly COUNT successful executions, each moderation id once, at most 10% of
 * the service's answers to the reads 429; the time is reported against N/R. The executions of one n8n
 * process share one limiter for the service (in queue mode each worker has its own). In regular mode the
 * peak RSS of n8n's processes is sampled too (for the N8N_CONCURRENCY_PRODUCTION_LIMIT comparison).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { readWorkflow } from '../../../dev/n8n/stack';
import { assert, type E2eContext } from '../context';
import { listProcesses } from '../processes';
import { describeFigures, LONG_TIMEOUT_MS, runBurst } from '../queue/bursts';

export const CALLBACK_THEN_GET = readWorkflow(join(__dirname, '..', 'workflows', 'callback-then-get.json'));
/** 200 at once prove one limiter per process (at most 10% of reads refused) as well as 500 did. */
export const COUNT = Number(process.env.E2E_SHARED_BURST ?? 200);
const RATE = 20;

/** Sums the RSS of every process in `pgid`'s group (n8n and its task runner), sampled every second. */
function sampleGroupRss(pgid: number | undefined): { stop(): number } {
	let peak = 0;
	const sample = () => {
		if (pgid === undefined) return;
		let total = 0;
		for (const { pid } of listProcesses().filter((p) => p.pgid === pgid)) {
			try {
				const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
				total += rss ? Number(rss[1]) * 1024 : 0;
			} catch {
				// gone meanwhile
			}
		}
		peak = Math.max(peak, total);
	};
	sample();
	const timer = setInterval(sample, 1000);
	return {
		stop: () => {
			clearInterval(timer);
			sample();
			return peak;
		},
	};
}

export async function sharedLimiterBurst(ctx: E2eContext, mode: string): Promise<string> {
	const since = ctx.mock.requests.length;
	const rss = 'workers' in ctx.stack ? undefined : sampleGroupRss(ctx.stack.n8n.process?.pid);
	const limit = rss ? (ctx.stack.n8n.env.N8N_CONCURRENCY_PRODUCTION_LIMIT ?? '-1 (default)') : undefined;
	let run: Awaited<ReturnType<typeof runBurst>>;
	try {
		run = await runBurst(ctx, mode, COUNT, {
			trigger: CALLBACK_THEN_GET,
			timeoutMs: LONG_TIMEOUT_MS,
			// Retries seconds apart, as webhook senders make them: on a loaded 2-core machine n8n answers some calls
			// of a burst 503 ("Database is not ready!") for seconds, which the mock's 100 ms backoff does not outlast.
			retries: 6,
			backoffMs: 500,
			// Submitted first, then the limit: only the executions' reads meet it.
			during: async () => ctx.mock.configure({ rateLimit: RATE, rateLimitBurst: RATE }),
		});
	} finally {
		ctx.mock.configure({ rateLimit: 0, rateLimitBurst: 0 });
	}
	const peakRss = rss?.stop();
	const f = run.figures;
	const reads = ctx.mock.requests.slice(since).filter((r) => r.method === 'GET' && r.path.startsWith('/image/'));
	const refused = reads.filter((r) => r.status === 429).length;
	const overLimit = f.seconds / (COUNT / RATE);
	const idSet = new Set(run.ids);
	const answers: Record<string, number> = {};
	for (const a of ctx.mock.callbacks.filter((c) => idSet.has(c.moderationId))) {
		const key = String(a.status ?? a.error);
		answers[key] = (answers[key] ?? 0) + 1;
	}
	const detail =
		`${describeFigures(f)}; reads: ${reads.length} requests, ${refused} answered 429 (${((100 * refused) / reads.length).toFixed(1)}%); ` +
		`${f.seconds.toFixed(1)} s = ${overLimit.toFixed(2)} x N/R (${COUNT}/${RATE} per s); callback attempts by answer ${JSON.stringify(answers)}` +
		(peakRss ? `; N8N_CONCURRENCY_PRODUCTION_LIMIT ${limit}, n8n peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB` : '');
	ctx.log(detail);
	assert(f.acknowledged === COUNT && f.unacknowledged === 0, `${f.unacknowledged} of ${COUNT} callbacks never acknowledged (${detail})`);
	assert(f.executions === COUNT && f.successful === COUNT, `${f.successful} successful of ${f.executions} executions (${JSON.stringify(f.otherStatuses)})`);
	assert(f.duplicated === 0 && f.missing === 0, `${f.duplicated} moderation ids ran twice or more, ${f.missing} never`);
	assert(reads.length >= COUNT, `the service saw ${reads.length} reads for ${COUNT} executions`);
	assert(refused <= 0.1 * reads.length, `${refused} of ${reads.length} reads answered 429 (more than 10%)`);
	return detail;
}
