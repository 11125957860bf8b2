/**
 * Queue-mode bursts: many callbacks at once to a published trigger, in queue mode and, for the side-by-side
 * figures, in regular mode; the 1000-callback burst with the mock's default delivery settings; a worker
 * SIGKILLed in the middle of a burst. Everything counted is read from n8n's records and logs.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_OPTIONS } from '../../../dev/mock/options';
import { readWorkflow, WorkflowFile } from '../../../dev/n8n/stack';
import { BURST_PROCESS_MS, callbackUrl, submitDeferred, TRIGGER_WORKFLOW } from '../cases/deferred';
import { waitFor } from '../../../dev/wait';
import { assert, E2eContext } from '../context';
import { QueueContext, workerRuns } from './cases';
import { BurstExecution, burstFigures, BurstFigures } from './figures';

/**
 * A trigger workflow whose executions take 3 s (a Wait node), published in queue mode only: the example's
 * take milliseconds, so a worker killed at a random moment holds almost nothing (seen: 1 execution, already
 * saved as success).
 */
export const SLOW_TRIGGER = readWorkflow(join(__dirname, '..', 'workflows', 'slow-trigger.json'));

export const QUEUE_MODE = 'queue mode (2 workers)';
export const REGULAR_MODE = 'regular mode (1 process)';

/**
 * The burst's executions with the moderation id each received. Only the burst calls the trigger while it
 * runs, so every trigger execution after `afterId` is one of them (an id outside `ids` would show as missing).
 */
async function burstExecutions(ctx: E2eContext, workflowId: string, afterId: number): Promise<BurstExecution[]> {
	const rows = (await ctx.db.executions(workflowId)).filter((r) => r.id > afterId);
	const out: BurstExecution[] = [];
	for (const r of rows) {
		let moderationId: string | undefined;
		try {
			moderationId = (await ctx.db.execution(r.id)).items['Moderation Completed']?.[0]?.id;
		} catch {
			// no data row
		}
		out.push({ id: r.id, status: r.status, stoppedAt: r.stoppedAt, moderationId });
	}
	return out;
}

const FINAL = (s: string) => !['new', 'running', 'waiting'].includes(s);
const QUIET_MS = 15_000;

export interface BurstRun {
	ids: string[];
	figures: BurstFigures;
	executions: BurstExecution[];
}

/**
 * A per-attempt callback timeout long enough for one webhook processor on a busy 2-core machine to take 1000
 * callbacks before any attempt times out (seen: about 5 per second, load average 19). With the regular
 * suite's 120 s, the last few hundred timed out, were sent again, and both tries ran: 1360 executions for
 * 1000 callbacks. The mock's default (5 s) is measured separately.
 */
export const LONG_TIMEOUT_MS = 300_000;

/**
 * `count` deferred moderations processed together, so that the mock calls the trigger back at once, with the
 * mock's retries (3) and backoff and a per-attempt timeout of `timeoutMs` (the mock's default when not
 * given); `during` runs while the callbacks come in. Waits (bounded) until every delivery is over and every
 * execution has a final status.
 */
export async function runBurst(
	ctx: E2eContext,
	mode: string,
	count: number,
	opts: {
		timeoutMs?: number;
		during?: (ids: Set<string>, afterId: number) => Promise<void>;
		settleMs?: number;
		/** the published workflow whose trigger receives the callbacks (the deferred example's by default) */
		trigger?: WorkflowFile;
		/** the mock's retries of a delivery and the first backoff (doubled each time); the mock's defaults when not given */
		retries?: number;
		backoffMs?: number;
	} = {},
): Promise<BurstRun> {
	const trigger = opts.trigger ?? TRIGGER_WORKFLOW;
	// Execution ids are global and nothing else runs during a burst: every later id is the burst's. The highest
	// of any workflow, since a worker's log also names the executions of the cases before (a CI run killed a
	// worker that had only finished case 29's).
	const afterId = await ctx.db.lastExecutionId();
	const loadAtStart = loadavg()[0];
	const timeoutMs = opts.timeoutMs ?? DEFAULT_OPTIONS.callbackTimeoutMs;
	const retries = opts.retries ?? DEFAULT_OPTIONS.callbackRetries;
	ctx.mock.configure({
		processMs: BURST_PROCESS_MS,
		callbackTimeoutMs: timeoutMs,
		callbackRetries: retries,
		callbackBackoffMs: opts.backoffMs ?? DEFAULT_OPTIONS.callbackBackoffMs,
	});
	const t0 = Date.now();
	const took = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
	const ids = await submitDeferred(ctx, count, callbackUrl(ctx, ctx.stack.callbackSecret, trigger), `burst-${mode.replace(/\W+/g, '-')}`);
	const idSet = new Set(ids);
	ctx.mock.configure({ processMs: DEFAULT_OPTIONS.processMs });
	// Caught at once (rethrown below) so that a failure here is not an unhandled rejection meanwhile.
	const during = (opts.during?.(idSet, afterId) ?? Promise.resolve()).then(() => undefined, (e: Error) => e);
	// Every delivery ends within (retries + 1) attempts of timeoutMs, plus backoff and the processing delay.
	// Generous: on a starved machine timers fire late.
	// The burst's own deliveries: earlier cases' late callbacks may still be retried meanwhile (409s, minutes).
	await ctx.mock.whenDelivered(ids, (retries + 1) * (timeoutMs + 5000) + (opts.backoffMs ?? 0) * 2 ** retries + 60_000);
	const { callbackTimeoutMs, callbackRetries, callbackBackoffMs } = DEFAULT_OPTIONS;
	ctx.mock.configure({ callbackTimeoutMs, callbackRetries, callbackBackoffMs });
	const failed = await during;
	if (failed) throw failed;
	const delivered = took();
	const settle = opts.settleMs ?? 300_000;
	// n8n goes on with requests whose caller has already given up (it had read their body): executions keep
	// appearing after the last delivery. Settled = every execution final and no new one for QUIET_MS.
	let last = { count: -1, since: Date.now() };
	await waitFor(
		`the ${mode} burst's executions to settle`,
		async () => {
			const rows = (await ctx.db.executions(trigger.id)).filter((r) => r.id > afterId);
			if (rows.length !== last.count) last = { count: rows.length, since: Date.now() };
			return rows.every((r) => FINAL(r.status)) && Date.now() - last.since >= QUIET_MS ? rows : undefined;
		},
		settle,
		2000,
	).catch((e) => ctx.log(`${(e as Error).message}; counting them as they are`));
	const settled = took();
	const executions = await burstExecutions(ctx, trigger.id, afterId);
	ctx.log(`${mode} burst: every delivery over after ${delivered}, executions settled after ${settled}, read after ${took()}`);
	const attempts = ctx.mock.callbacks.filter((c) => idSet.has(c.moderationId));
	const label = `${mode}, ${timeoutMs / 1000} s timeout`;
	const figures = burstFigures(label, ids, attempts, executions);
	figures.load = [loadAtStart, loadavg()[0]];
	return { ids, executions, figures };
}

function spread(ctx: QueueContext, run: BurstRun): Record<string, number> {
	const { started } = workerRuns(ctx.stack.workers);
	const perWorker: Record<string, number> = Object.fromEntries(ctx.stack.workers.map((w) => [w.name, 0]));
	for (const e of run.executions) for (const n of started.get(e.id) ?? []) perWorker[n]++;
	return perWorker;
}

export function describeFigures(f: BurstFigures): string {
	const workers = f.perWorker ? `, ${Object.entries(f.perWorker).map(([k, v]) => `${k} ${v}`).join(' / ')}` : '';
	return `${f.acknowledged} acknowledged, ${f.successful} successful of ${f.executions} executions${workers}; ${f.executionsPerSecond.toFixed(1)}/s; ack p50 ${f.ackP50Ms} ms p95 ${f.ackP95Ms} ms; ${f.retried} deliveries retried, ${f.unacknowledged} never acknowledged; ids run twice+ ${f.duplicated}, never ${f.missing}; other statuses ${JSON.stringify(f.otherStatuses)}`;
}

/**
 * A burst measured as it comes out (the mock's default timeout is one such run): the only requirement is
 * that no acknowledged callback is missing from n8n's records. `ctx` of either mode.
 */
export async function measuredBurst(ctx: E2eContext, mode: string, count: number, timeoutMs: number | undefined, out: BurstFigures[]): Promise<string> {
	const run = await runBurst(ctx, mode, count, { timeoutMs });
	const f = run.figures;
	if ('workers' in ctx.stack) f.perWorker = spread(ctx as QueueContext, run);
	out.push(f);
	assert(f.ackedWithoutExecution.length === 0, `${f.ackedWithoutExecution.length} acknowledged callbacks have no execution (e.g. ${f.ackedWithoutExecution[0]})`);
	return describeFigures(f);
}

export interface KillReport {
	killedAfter: number;
	held: number[];
	/** what became of the executions the killed worker held */
	outcome: Record<string, number>;
	rerunElsewhere: number;
	figures: BurstFigures;
	errorMessages: Record<string, number>;
	/** held executions whose record in n8n no longer contains the callback's moderation id */
	payloadGone: number[];
}

/**
 * A worker SIGKILLed once it has started `killAfter` of the burst's executions. What n8n then does with the
 * executions that worker held is counted from n8n's records; no acknowledged callback may be without one.
 * n8n 2.41 sets Bull's maxStalledCount to 0: a job whose worker died is not run again but failed once its
 * lock (QUEUE_WORKER_LOCK_DURATION, 60 s) expires and the stalled check (every 30 s) sees it.
 */
export async function killWorkerMidBurst(ctx: QueueContext, count: number, killAfter: number, report: KillReport[]): Promise<string> {
	const victim = ctx.stack.workers[0];
	let killedAfter = 0;
	let held: number[] = [];
	const run = await runBurst(ctx, 'queue mode, worker 1 killed', count, {
		trigger: SLOW_TRIGGER,
		timeoutMs: LONG_TIMEOUT_MS,
		settleMs: 240_000,
		during: async (_ids, afterId) => {
			await waitFor(
				`${victim.name} to start ${killAfter} burst executions`,
				async () => {
					const mine = [...workerRuns([victim]).started.keys()].filter((id) => id > afterId);
					return mine.length >= killAfter ? mine : undefined;
				},
				120_000,
				100,
			);
			victim.kill();
			const { started, finished } = workerRuns([victim]);
			held = [...started.keys()].filter((id) => id > afterId && !finished.has(id));
			killedAfter = [...started.keys()].filter((id) => id > afterId).length;
			ctx.log(`SIGKILLed ${victim.name} after it started ${killedAfter} burst executions; it held ${held.length} unfinished`);
		},
	});
	const byId = new Map(run.executions.map((e) => [e.id, e]));
	const others = workerRuns(ctx.stack.workers.filter((w) => w !== victim)).started;
	const outcome: Record<string, number> = {};
	const errorMessages: Record<string, number> = {};
	for (const id of held) {
		const e = byId.get(id);
		const k = e ? e.status : 'no record';
		outcome[k] = (outcome[k] ?? 0) + 1;
		if (e && e.status !== 'success') {
			const msg = String((await ctx.db.execution(id)).error?.message ?? '(no error message)').slice(0, 120);
			errorMessages[msg] = (errorMessages[msg] ?? 0) + 1;
		}
	}
	const rerunElsewhere = held.filter((id) => others.has(id)).length;
	// Does n8n's record of each execution the killed worker had still say which callback it was for? Those are
	// the ones no other worker started: `held` (seen started in its log) and any job it took in the moment before
	// the kill without logging it (a CI run saw one such).
	const payloadGone: number[] = [];
	const victims = run.executions.map((e) => e.id).filter((id) => !others.has(id) && (held.includes(id) || byId.get(id)?.status !== 'success'));
	for (const id of victims) {
		const text = JSON.stringify((await ctx.db.execution(id)).raw);
		if (!run.ids.some((m) => text.includes(m))) payloadGone.push(id);
	}
	const unattributed = run.executions.filter((e) => !e.moderationId).map((e) => e.id);
	// Back to two workers for what follows.
	await victim.start();
	const f = run.figures;
	report.push({ killedAfter, held, outcome, rerunElsewhere, figures: f, errorMessages, payloadGone });
	assert(held.length > 0, `${victim.name} held no unfinished execution when killed: the kill proved nothing`);
	// Every acknowledged callback has an execution record: found by its moderation id, or one of the killed
	// worker's executions whose data n8n replaced (then the counts match one to one).
	assert(
		f.ackedWithoutExecution.length === unattributed.length && unattributed.every((id) => payloadGone.includes(id)),
		`${f.ackedWithoutExecution.length} acknowledged callbacks without an execution naming them, ${unattributed.length} executions naming no callback (${unattributed.slice(0, 5)}), held by the killed worker with data gone: ${payloadGone.slice(0, 5)}`,
	);
	assert(f.executions >= f.acknowledged, `${f.executions} executions for ${f.acknowledged} acknowledged callbacks`);
	const notFinal = run.executions.filter((e) => !FINAL(e.status));
	return `killed after ${killedAfter} started; it held ${held.length}: ${JSON.stringify(outcome)}, re-run on another worker: ${rerunElsewhere}; ${JSON.stringify(errorMessages)}; records of held executions that no longer name their callback: ${payloadGone.length}; whole burst: ${f.successful} success, ${JSON.stringify(f.otherStatuses)}, ${notFinal.length} not final; ${f.acknowledged} acknowledged, all with an execution record; ${f.unacknowledged} never acknowledged`;
}

