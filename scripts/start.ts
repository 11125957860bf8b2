/**
 * `npm start`: builds the package, starts the mock Content Moderation Service and a real n8n with the
 * package, a ready credential and the example workflows, runs the examples once, prints a summary and the
 * editor URL with its login, then keeps running until Ctrl-C, which stops everything it started.
 * `npm start -- --queue` does the same on n8n's queue mode (Postgres, Redis, main, 2 workers, a webhook
 * processor; dev/n8n/queue.ts).
 */
import { ExecutionRecords, N8nDb } from '../dev/n8n/db';
import { Running, runInteractive } from '../dev/n8n/lifecycle';
import { QueueStack, startQueueStack } from '../dev/n8n/queue';
import { newCallbackSecret, startStack } from '../dev/n8n/stack';
import { executeWorkflow, verdictLine } from '../dev/n8n/summary';
import { call } from '../dev/mock/client';
import { startMockService } from '../dev/mock/server';

const t0 = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${line}`);

const URL_EXAMPLE = 'cmExample01Url00';
const SUBMIT_EXAMPLE = 'cmExample03Sub00';
const TRIGGER_EXAMPLE = 'cmExample03Trig0';
const QUEUE = process.argv.slice(2).includes('--queue');
/** The review queue of the demo's decision line. */
const REVIEW_QUEUE = 'n8n-demo-reviews';

const running: Running = {};

async function main(): Promise<void> {
	const port = process.env.MOCK_PORT ? Number(process.env.MOCK_PORT) : undefined;
	const mock = (running.mock = await startMockService({ port }));
	log(`mock Content Moderation Service at ${mock.url}`);
	const opts = {
		serviceUrl: mock.url,
		serviceToken: mock.token,
		callbackSecret: newCallbackSecret('demo-cb'),
		log,
		port: process.env.N8N_PORT ? Number(process.env.N8N_PORT) : undefined,
	};
	let queue: QueueStack | undefined;
	let db: ExecutionRecords;
	if (QUEUE) {
		queue = await startQueueStack(opts);
		running.stack = queue;
		// The queue stack closes its own records reader when it stops.
		db = queue.records;
	} else {
		running.stack = await startStack(opts);
		db = running.db = N8nDb.forUserFolder(running.stack.n8n.userFolder);
	}
	const stack = running.stack;

	// The account webhook URL (the vendor's dashboard setting) is the demo trigger's Production URL, with the
	// Callback Secret in it: review decisions (queue.review.completed) start that workflow.
	const trigger = stack.workflows.find((w) => w.id === TRIGGER_EXAMPLE)?.nodes.find((n) => /contentModerationTrigger$/.test(n.type));
	const webhookUrl = trigger?.webhookId
		? `${stack.webhookUrl}/webhook/${trigger.webhookId}/callback?token=${encodeURIComponent(opts.callbackSecret)}`
		: undefined;
	if (webhookUrl) mock.configure({ webhookUrl });

	log(`running example "moderate images from URLs" once (${QUEUE ? 'on a worker' : 'n8n execute'})...`);
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

	// One text waiting in a review queue, so that a decision can be made at once (see the curl line below).
	const review = await call(mock.url, 'POST', `/queues/${REVIEW_QUEUE}`, {
		token: mock.token,
		json: { type: 'text', content: 'A comment waiting for a person to accept or reject it.', meta: { source: 'npm start' } },
	});
	const decisionCurl =
		`curl -sS -X POST ${mock.url}/__mock/queues/${REVIEW_QUEUE}/items/${review.body.id}/decision ` +
		`-H 'Authorization: Bearer ${mock.token}' -H 'Content-Type: application/json' -d '{"decision":"accepted"}'`;

	const { n8n, owner } = stack;
	console.log(`
==================================================================================================
 Example "moderate images from URLs" (execution #${urlRun.executionId}, ${urlRun.status}):
${lines.join('\n')}
  -> ${published} published, ${held} held for review

 Example "deferred moderation": ${submitted.length} images submitted (execution #${submitRun.executionId}, ${submitRun.status}),
 ids ${submitted.map((s) => s.id).join(', ')}; the service called the trigger back:
${triggerLines.join('\n') || '  (no trigger execution within 60s)'}

 Review decision: item ${review.body.id} waits in queue "${REVIEW_QUEUE}" of the mock; a person's decision
 (accepted or rejected) is sent to the account webhook URL${webhookUrl ? ', the Production URL of "Moderation Completed" (example 03)' : ' (none set)'}:
   ${decisionCurl}
 Any pending item can be decided the same way (the mock answers 409 unless the item is pending).

 n8n editor:   ${n8n.url}/
 login:        ${owner.email} / ${owner.password}
 credential:   "Content Moderation account" -> ${mock.url} (mock service)${queue ? queueLines(queue) : ''}
 workflows:    ${stack.workflows.map((w) => w.name.replace(/^Content Moderation: /, '')).join(' | ')}
 Press Ctrl-C to stop n8n and the mock service.
==================================================================================================`);
}

runInteractive('npm start', running, main);

function queueLines(q: QueueStack): string {
	return `
 queue mode:   webhook processor ${q.webhookUrl}/webhook/... (the triggers' Production URLs point here);
               ${q.workers.map((w) => `${w.name} (health ${w.url})`).join(', ')};
               Postgres 127.0.0.1:${q.postgres.port}, Redis 127.0.0.1:${q.redis.port}
 logs:         ${q.n8n.userFolder}/{n8n,worker-1,worker-2,webhook}.log ("Worker started execution N", "Enqueued execution N")`;
}
