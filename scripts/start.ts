/**
 * `npm start`: builds the package, starts the mock Content Moderation Service and a real n8n with the
 * package, a ready credential and the example workflows, runs the examples once, prints a summary and the
 * editor URL with its login, then keeps running until Ctrl-C, which stops everything it started.
 */
import { N8nDb } from '../dev/n8n/db';
import { Running, teardownOnSignals } from '../dev/n8n/lifecycle';
import { newCallbackSecret, startStack } from '../dev/n8n/stack';
import { executeWorkflow, verdictLine } from '../dev/n8n/summary';
import { startMockService } from '../dev/mock/server';

const t0 = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${line}`);

const URL_EXAMPLE = 'cmExample01Url00';
const SUBMIT_EXAMPLE = 'cmExample03Sub00';
const TRIGGER_EXAMPLE = 'cmExample03Trig0';

const running: Running = {};
const stopAll = teardownOnSignals(running, {
	log: (line) => console.log(`\n${line}`),
	onSignal: () => {
		console.log('stopped.');
		process.exit(0);
	},
});

async function main(): Promise<void> {
	const port = process.env.MOCK_PORT ? Number(process.env.MOCK_PORT) : undefined;
	const mock = (running.mock = await startMockService({ port }));
	log(`mock Content Moderation Service at ${mock.url}`);
	const stack = (running.stack = await startStack({
		serviceUrl: mock.url,
		serviceToken: mock.token,
		callbackSecret: newCallbackSecret('demo-cb'),
		log,
		port: process.env.N8N_PORT ? Number(process.env.N8N_PORT) : undefined,
	}));
	const db = (running.db = N8nDb.forUserFolder(stack.n8n.userFolder));

	log('running example "moderate images from URLs" once (n8n execute)...');
	const urlRun = await executeWorkflow(stack, db, URL_EXAMPLE);
	// Route by Verdict is on: output 0 (Safe) feeds Publish, output 1 (Flagged) feeds Hold for Review.
	const lines: string[] = [];
	for (const p of urlRun.items['Publish'] ?? []) lines.push(`  SAFE     -> publish  ${p.imageUrl}`);
	for (const h of urlRun.items['Hold for Review'] ?? []) {
		lines.push(`  FLAGGED  -> hold     ${h.imageUrl} (risk ${h.overallRisk}${h.categories ? `; ${h.categories}` : ''})`);
	}
	const published = (urlRun.items['Publish'] ?? []).length;
	const held = (urlRun.items['Hold for Review'] ?? []).length;

	log('running example "deferred moderation" once: submit, then wait for the trigger...');
	const before = (await db.executions(TRIGGER_EXAMPLE)).length;
	const submitRun = await executeWorkflow(stack, db, SUBMIT_EXAMPLE);
	const submitted = submitRun.items['Submit for Deferred Moderation'] ?? [];
	const deadline = Date.now() + 60_000;
	let triggerRows = (await db.executions(TRIGGER_EXAMPLE)).slice(before);
	while (Date.now() < deadline && triggerRows.filter((r) => r.status !== 'running' && r.status !== 'new').length < submitted.length) {
		await new Promise((r) => setTimeout(r, 500));
		triggerRows = (await db.executions(TRIGGER_EXAMPLE)).slice(before);
	}
	const triggerLines: string[] = [];
	for (const row of triggerRows) {
		const d = await db.execution(row.id);
		const [result] = d.items['Moderation Completed'] ?? [];
		const decision = (d.items['Approve'] ?? []).length ? 'Approve' : (d.items['Send to Review'] ?? []).length ? 'Send to Review' : '-';
		triggerLines.push(`  execution #${row.id} ${row.status}: id ${result?.id} ${verdictLine(result)} -> ${decision}`);
	}

	const { n8n, owner } = stack;
	console.log(`
==================================================================================================
 Example "moderate images from URLs" (execution #${urlRun.executionId}, ${urlRun.status}):
${lines.join('\n')}
  -> ${published} published, ${held} held for review

 Example "deferred moderation": ${submitted.length} images submitted (execution #${submitRun.executionId}, ${submitRun.status}),
 ids ${submitted.map((s) => s.id).join(', ')}; the service called the trigger back:
${triggerLines.join('\n') || '  (no trigger execution within 60s)'}

 n8n editor:   ${n8n.url}/
 login:        ${owner.email} / ${owner.password}
 credential:   "Content Moderation account" -> ${mock.url} (mock service)
 workflows:    ${stack.workflows.map((w) => w.name.replace(/^Content Moderation: /, '')).join(' | ')}
 Press Ctrl-C to stop n8n and the mock service.
==================================================================================================`);
}

main().catch(async (e) => {
	console.error(`npm start failed: ${e instanceof Error ? e.message : e}`);
	if (e?.userFolder) console.error(`n8n log: ${e.userFolder}/n8n.log`);
	await stopAll();
	process.exit(1);
});
