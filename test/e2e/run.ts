/**
 * Real n8n end-to-end runner (`npm run test:e2e`): installs/reuses n8n (N8N_VERSION, default 2.41.1), loads
 * this package the way users get it, imports a credential pointing at the mock service plus the example
 * workflows, and runs the suite's cases (suites.ts) against n8n's own records, on one n8n: between phases it
 * restarts with the next phase's settings. Prints one line per case and `N passed, N failed`.
 */
import { join } from 'node:path';
import { N8nDb } from '../../dev/n8n/db';
import { N8N_MAJOR } from '../../dev/n8n/install';
import { exitWhenDone, Running, teardownOnSignals } from '../../dev/n8n/lifecycle';
import { newCallbackSecret, startStack } from '../../dev/n8n/stack';
import { startMockService, type MockService } from '../../dev/mock/server';
import { E2eContext, e2eWorkflows } from './context';
import { cases, runPhase } from './cases';
import { CALLBACK_THEN_GET } from './cases/sharedLimiter';
import { COMPLETIONS_RECEIVE, COMPLETIONS_TRIGGER, COMPLETIONS_WEBHOOK } from './cases/completions';
import { onlyCases, selectPhases, SUITES } from './suites';

const started = Date.now();
const stamp = () => `[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s]`;
const log = (line: string) => console.log(`${stamp()} ${line}`);
const keep = process.env.E2E_KEEP === '1';

const running: Running = {};
const cleanup = teardownOnSignals(running, { keep, log, onSignal: () => process.exit(130) });

async function main(): Promise<number> {
	const phases = selectPhases(SUITES[N8N_MAJOR >= 2 ? 'n8n 2.x' : 'n8n 1.x'], onlyCases(), cases.map((c) => c.id));
	const count = phases.reduce((n, p) => n + p.cases.length, 0);
	let passed = 0;
	let failed = 0;
	try {
		const mock = (running.mock = await startMockService({}));
		log(`mock service at ${mock.url}`);
		running.stack = await startStack({
			serviceUrl: mock.url,
			serviceToken: mock.token,
			callbackSecret: newCallbackSecret('e2e-cb'),
			extraWorkflows: e2eWorkflows(),
			publish: [CALLBACK_THEN_GET.id, COMPLETIONS_TRIGGER.id, COMPLETIONS_WEBHOOK.id, COMPLETIONS_RECEIVE.id],
			// E2E_PRODUCTION_LIMIT=N: n8n's N8N_CONCURRENCY_PRODUCTION_LIMIT for this run (case 16's comparison).
			// E2E_N8N_ENV='{"NAME":"value"}': more n8n settings for this run.
			n8nEnv: {
				...(process.env.E2E_PRODUCTION_LIMIT ? { N8N_CONCURRENCY_PRODUCTION_LIMIT: process.env.E2E_PRODUCTION_LIMIT } : {}),
				...(process.env.E2E_N8N_ENV ? (JSON.parse(process.env.E2E_N8N_ENV) as Record<string, string>) : {}),
				...(phases[0]?.env ?? {}),
			},
			log,
		});
		running.db = N8nDb.forUserFolder(running.stack.n8n.userFolder);
	} catch (e) {
		log(`setup failed: ${(e as Error).stack ?? e}`);
		const uf = (e as { userFolder?: string }).userFolder;
		if (uf) log(`n8n log: ${join(uf, 'n8n.log')}`);
		for (const id of phases.flatMap((p) => p.cases)) console.log(`FAIL ${id}. ${cases.find((c) => c.id === id)?.name} (setup failed)`);
		console.log(`0 passed, ${count} failed`);
		await cleanup();
		return 1;
	}
	const { stack, mock, db } = running as Required<Running> & { mock: MockService };
	const ctx: E2eContext = { stack, mock, db, log };
	for (const [i, phase] of phases.entries()) {
		if (i > 0) {
			stack.n8n.setEnv(phase.env ?? {});
			if (phase.restartedBy === phase.cases[0]) {
				log(`--- case ${phase.cases[0]} restarts n8n, with ${JSON.stringify(phase.env ?? {})} from now on`);
			} else {
				log(`--- restarting n8n with ${JSON.stringify(phase.env ?? {})}`);
				await stack.n8n.stop();
				await stack.n8n.start();
				await stack.rest.setupOwnerAndLogin();
			}
		}
		log(`--- ${phase.label}: cases ${phase.cases.join(', ')}`);
		const counted = await runPhase(phase, cases, ctx);
		passed += counted.passed;
		failed += counted.failed;
	}
	if (failed) log(`n8n log: ${stack.n8n.logFile}${keep ? '' : ' (set E2E_KEEP=1 to keep it)'}`);
	log(`total ${((Date.now() - started) / 1000).toFixed(0)}s`);
	await cleanup();
	console.log(`${passed} passed, ${failed} failed`);
	return failed ? 1 : 0;
}

exitWhenDone(main, cleanup);
