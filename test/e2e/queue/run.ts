/**
 * `npm run test:e2e:queue`: the e2e cases where n8n's queue mode can behave differently (suites.ts), on one
 * queue stack (Postgres, Redis, main, 2 workers, a webhook processor; see dev/n8n/queue.ts): regular cases
 * whose work moves to other processes, then the queue-only cases below (where executions ran and callbacks
 * came in, Deferred and Wait and Wait for Callback on workers, a burst over both workers with a limiter per
 * worker, a worker SIGKILLed mid-burst); between phases the workers and the webhook processor restart
 * with the next phase's settings. The 1000-callback figures beside regular mode are `npm run bench -- --only
 * queue-burst`. Ends with `N passed, N failed`. Options: E2E_ONLY=2,23, E2E_KEEP=1, E2E_VERBOSE=1,
 * E2E_N8N_ENV, QUEUE_BURST (200), QUEUE_N8N_DB_DEFAULTS=1 (n8n's own Postgres pool and health-ping settings
 * instead of BURST_DB_SETTINGS).
 */
import { exitWhenDone, Running, teardownOnSignals } from '../../../dev/n8n/lifecycle';
import { QueueStack, startQueueStack } from '../../../dev/n8n/queue';
import { newCallbackSecret } from '../../../dev/n8n/stack';
import { startMockService } from '../../../dev/mock/server';
import { cases, runPhase } from '../cases';
import { CALLBACK_THEN_GET } from '../cases/sharedLimiter';
import { COMPLETIONS_RECEIVE, COMPLETIONS_TRIGGER, COMPLETIONS_WEBHOOK } from '../cases/completions';
import { E2eContext, e2eWorkflows } from '../context';
import { onlyCases, selectPhases, SUITES } from '../suites';
import { SLOW_TRIGGER } from './bursts';
import { kills, queueCases } from './caseList';

const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);
const keep = process.env.E2E_KEEP === '1';
const DB_SETTINGS = process.env.QUEUE_N8N_DB_DEFAULTS === '1' ? {} : undefined;

const running: Running = {};
const cleanup = teardownOnSignals(running, { keep, log, onSignal: () => process.exit(130) });

const all = [...cases, ...queueCases];

async function main(): Promise<number> {
	const phases = selectPhases(SUITES['queue mode'], onlyCases(), all.map((c) => c.id));
	const count = phases.reduce((n, p) => n + p.cases.length, 0);
	let passed = 0;
	let failed = 0;
	const mock = (running.mock = await startMockService({}));
	log(`mock service at ${mock.url}`);
	let stack: QueueStack;
	try {
		stack = await startQueueStack({
			serviceUrl: mock.url,
			serviceToken: mock.token,
			callbackSecret: newCallbackSecret('queue-cb'),
			extraWorkflows: e2eWorkflows(),
			db: DB_SETTINGS,
			publish: [SLOW_TRIGGER.id, CALLBACK_THEN_GET.id, COMPLETIONS_TRIGGER.id, COMPLETIONS_WEBHOOK.id, COMPLETIONS_RECEIVE.id],
			// E2E_N8N_ENV='{"NAME":"value"}': more n8n settings for every process of this run.
			n8nEnv: {
				...(process.env.E2E_N8N_ENV ? (JSON.parse(process.env.E2E_N8N_ENV) as Record<string, string>) : {}),
				...(phases[0]?.env ?? {}),
			},
			log,
		});
		running.stack = stack;
	} catch (e) {
		log(`queue stack setup failed: ${(e as Error).stack ?? e}`);
		for (const id of phases.flatMap((p) => p.cases)) console.log(`FAIL ${id}. ${all.find((c) => c.id === id)?.name} (setup failed)`);
		console.log(`0 passed, ${count} failed`);
		await cleanup();
		return 1;
	}
	const ctx: E2eContext = { stack, db: stack.records, mock, log };
	for (const [i, phase] of phases.entries()) {
		if (i > 0) {
			log(`--- restarting the workers and the webhook processor with ${JSON.stringify(phase.env ?? {})}`);
			await stack.restartBurstProcesses(phase.env ?? {});
		}
		log(`--- ${phase.label}: cases ${phase.cases.join(', ')}`);
		const counted = await runPhase(phase, all, ctx);
		passed += counted.passed;
		failed += counted.failed;
	}
	for (const k of kills) {
		console.log(
			`Worker killed after starting ${k.killedAfter}: it held ${k.held.length} unfinished -> ${JSON.stringify(k.outcome)}; re-run on another worker ${k.rerunElsewhere}; errors ${JSON.stringify(k.errorMessages)}; records no longer naming their callback ${k.payloadGone.length}`,
		);
	}
	if (failed) log(`logs in ${stack.n8n.userFolder}${keep ? '' : ' (set E2E_KEEP=1 to keep them)'}`);
	log(`total ${((Date.now() - started) / 1000).toFixed(0)}s`);
	await cleanup();
	console.log(`${passed} passed, ${failed} failed`);
	return failed ? 1 : 0;
}

exitWhenDone(main, cleanup);
