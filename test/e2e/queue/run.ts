/**
 * `npm run test:e2e:queue`: the e2e suite on n8n's queue mode (Postgres, Redis, main, 2 workers, a webhook
 * processor; see dev/n8n/queue.ts), then the queue-only cases: where executions ran and callbacks came in,
 * Deferred and Wait on a worker, a 1000-callback burst and a worker SIGKILLed mid-burst. The queue stack is
 * then stopped and the same burst runs in regular mode (one n8n process, sqlite), so the figures are side by
 * side from one run; they are printed as a table and written to bench-results/queue-burst.json.
 * Ends with `N passed, N failed`. Options: E2E_ONLY=1,11, E2E_KEEP=1, E2E_VERBOSE=1, QUEUE_BURST (1000),
 * QUEUE_N8N_DB_DEFAULTS=1 (n8n's own Postgres pool and health-ping settings instead of BURST_DB_SETTINGS).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { N8nDb } from '../../../dev/n8n/db';
import { PROJECT_ROOT } from '../../../dev/n8n/install';
import { exitWhenDone, Running, teardownOnSignals } from '../../../dev/n8n/lifecycle';
import { startQueueStack } from '../../../dev/n8n/queue';
import { newCallbackSecret, startStack } from '../../../dev/n8n/stack';
import { startMockService } from '../../../dev/mock/server';
import { cases, E2eCase, runCase } from '../cases';
import { CALLBACK_THEN_GET } from '../cases/sharedLimiter';
import { COMPLETIONS_RECEIVE, COMPLETIONS_TRIGGER, COMPLETIONS_TRIGGER_PLAIN, COMPLETIONS_WEBHOOK } from '../cases/completions';
import { E2eContext, e2eWorkflows } from '../context';
import { KillReport, killWorkerMidBurst, LONG_TIMEOUT_MS, measuredBurst, QUEUE_MODE, queueBurst, REGULAR_MODE, SLOW_TRIGGER } from './bursts';
import { deferredAndWaitOnWorker, QueueContext, ranOnWorkers } from './cases';
import { completionAcrossProcesses } from './completions';
import { sharedLimiterOnWorkers } from './sharedLimiter';
import { waitForCallbackOnWorkers } from './waitForCallback';
import { textModerationOnWorkers } from './textModeration';
import { BurstFigures, figuresTable } from './figures';

const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);
const keep = process.env.E2E_KEEP === '1';
const only = process.env.E2E_ONLY?.split(',').map((s) => s.trim());
const BURST = Number(process.env.QUEUE_BURST ?? 1000);
const DB_SETTINGS = process.env.QUEUE_N8N_DB_DEFAULTS === '1' ? {} : undefined;
// Kill once the victim has started this many of the burst's executions: well inside the burst.
const KILL_AFTER = Math.max(5, Math.round(BURST / 10));

const running: Running = {};
const cleanup = teardownOnSignals(running, { keep, log, onSignal: () => process.exit(130) });

const figures: BurstFigures[] = [];
const kills: KillReport[] = [];

// Every regular case but 13 and 15, which restart one process (not what a queue deployment does), 16, which
// runs here as 29, 40, the dev loop, which starts its own regular n8n whatever the suite's stack is, and 41,
// whose two runs must share one process's limiter (main would give them to either worker).
const NOT_IN_QUEUE_MODE = new Set([13, 15, 16, 40, 41]);

const queueCases: E2eCase[] = [
	...cases.filter((c) => !NOT_IN_QUEUE_MODE.has(c.id)),
	{ id: 21, name: 'every execution ran on a worker; callbacks came in through the webhook processor', run: (c) => ranOnWorkers(c as QueueContext) },
	{ id: 22, name: 'Deferred and Wait runs on a worker and returns the full result', run: (c) => deferredAndWaitOnWorker(c as QueueContext) },
	{
		id: 23,
		name: `${BURST} callbacks at once (per-attempt timeout ${LONG_TIMEOUT_MS / 1000} s): exactly ${BURST} successful executions, each id once, over both workers`,
		run: (c) => queueBurst(c as QueueContext, BURST, figures),
	},
	{ id: 24, name: `a worker SIGKILLed in the middle of a ${BURST}-callback burst`, run: (c) => killWorkerMidBurst(c as QueueContext, BURST, KILL_AFTER, kills) },
	{
		id: 25,
		name: `${BURST} callbacks at once with the mock's default timeout and retries: measured; every acknowledged callback has its execution`,
		run: (c) => measuredBurst(c, QUEUE_MODE, BURST, undefined, figures),
	},
	{
		id: 26,
		name: 'Wait for Callback: waits on a worker, callbacks through the webhook processor, resumed once on a worker',
		run: (c) => waitForCallbackOnWorkers(c as QueueContext),
	},
	{ id: 29, name: '500 callbacks, each execution reads its result from a service limited to 20/s: a limiter per worker', run: (c) => sharedLimiterOnWorkers(c as QueueContext) },
	{ id: 30, name: 'Text > Moderate: polls on a worker; a webhook comment enqueued by the webhook processor is answered with the cleaned text', run: (c) => textModerationOnWorkers(c as QueueContext) },
	{
		id: 46,
		name: 'trigger: one completion delivered 7 times (5 at once) to the webhook processor starts one execution (main takes no production webhooks here)',
		run: (c) => completionAcrossProcesses(c as QueueContext),
	},
];
// The same bursts on one regular n8n process (sqlite), measured in the same run for the side-by-side table.
const regularCases: E2eCase[] = [
	{
		id: 27,
		name: `regular mode, the burst of case 23 (per-attempt timeout ${LONG_TIMEOUT_MS / 1000} s): measured`,
		run: (c) => measuredBurst(c, REGULAR_MODE, BURST, LONG_TIMEOUT_MS, figures),
	},
	{
		id: 28,
		name: `regular mode, the burst of case 25 (mock defaults): measured`,
		run: (c) => measuredBurst(c, REGULAR_MODE, BURST, undefined, figures),
	},
];

async function runAll(selected: E2eCase[], ctx: E2eContext, tally: { passed: number; failed: number }): Promise<void> {
	for (const c of selected) {
		if (await runCase(c, ctx)) tally.passed++;
		else tally.failed++;
	}
}

async function main(): Promise<number> {
	const pick = (list: E2eCase[]) => list.filter((c) => !only || only.includes(String(c.id)));
	const tally = { passed: 0, failed: 0 };
	const mock = (running.mock = await startMockService({}));
	log(`mock service at ${mock.url}`);
	for (const [label, selected, start] of [
		[
			'queue mode',
			pick(queueCases),
			async () => {
				const stack = await startQueueStack({
					serviceUrl: mock.url,
					serviceToken: mock.token,
					callbackSecret: newCallbackSecret('queue-cb'),
					extraWorkflows: e2eWorkflows(),
					db: DB_SETTINGS,
					publish: [SLOW_TRIGGER.id, CALLBACK_THEN_GET.id, COMPLETIONS_TRIGGER.id, COMPLETIONS_TRIGGER_PLAIN.id, COMPLETIONS_WEBHOOK.id, COMPLETIONS_RECEIVE.id],
					// E2E_N8N_ENV='{"NAME":"value"}': more n8n settings for every process of this run.
					n8nEnv: process.env.E2E_N8N_ENV ? (JSON.parse(process.env.E2E_N8N_ENV) as Record<string, string>) : undefined,
					log,
				});
				return { stack, db: stack.records };
			},
		],
		[
			'regular mode',
			pick(regularCases),
			async () => {
				const stack = await startStack({
					serviceUrl: mock.url,
					serviceToken: mock.token,
					callbackSecret: newCallbackSecret('regular-cb'),
					extraWorkflows: e2eWorkflows(),
					log,
				});
				return { stack, db: (running.db = N8nDb.forUserFolder(stack.n8n.userFolder)) };
			},
		],
	] as const) {
		if (!selected.length) continue;
		log(`--- ${label}: starting the stack`);
		let ctx: E2eContext;
		try {
			const { stack, db } = await start();
			running.stack = stack;
			ctx = { stack, db, mock, log };
		} catch (e) {
			log(`${label} setup failed: ${(e as Error).stack ?? e}`);
			for (const c of selected) console.log(`FAIL ${c.id}. ${c.name} (setup failed)`);
			tally.failed += selected.length;
			continue;
		}
		await runAll(selected, ctx, tally);
		log(`--- ${label}: stopping the stack`);
		await stopStack();
	}
	if (figures.length) {
		console.log(`\nCallback bursts, ${BURST} at once, mock retries 3 (backoff 100 ms doubling):\n${figuresTable(figures)}`);
		for (const k of kills) {
			console.log(
				`Worker killed after starting ${k.killedAfter}: it held ${k.held.length} unfinished -> ${JSON.stringify(k.outcome)}; re-run on another worker ${k.rerunElsewhere}; errors ${JSON.stringify(k.errorMessages)}; records no longer naming their callback ${k.payloadGone.length}`,
			);
		}
		const out = join(PROJECT_ROOT, 'bench-results');
		mkdirSync(out, { recursive: true });
		writeFileSync(join(out, 'queue-burst.json'), JSON.stringify({ burst: BURST, figures, kills, at: new Date().toISOString() }, null, 2));
		log(`figures written to bench-results/queue-burst.json`);
	}
	log(`total ${((Date.now() - started) / 1000).toFixed(0)}s`);
	await cleanup();
	console.log(`${tally.passed} passed, ${tally.failed} failed`);
	return tally.failed ? 1 : 0;
}

/** Stops the current stack (and its records reader) so the next one starts on a quiet machine. */
async function stopStack(): Promise<void> {
	await running.db?.close().catch(() => undefined);
	running.db = undefined;
	await running.stack?.stop().catch(() => undefined);
	if (running.stack && !keep) running.stack.n8n.cleanup();
	else if (running.stack) log(`kept n8n user folder ${running.stack.n8n.userFolder}`);
	running.stack = undefined;
}

exitWhenDone(main, cleanup);
