/**
 * `npm start`: builds the package, starts the mock Content Moderation Service and a real n8n with the
 * package, a ready credential and the example workflows, runs the examples once, prints a summary and the
 * editor URL with its login, then prints each later execution of the examples' triggers (a decision made with
 * the printed curl line, a deferred result) until Ctrl-C, which stops everything it started.
 * `npm start -- --queue` does the same on n8n's queue mode (Postgres, Redis, main, 2 workers, a webhook
 * processor; dev/n8n/queue.ts).
 */
import { ExecutionRecords, N8nDb } from '../dev/n8n/db';
import { Running, runInteractive } from '../dev/n8n/lifecycle';
import { QueueStack, startQueueStack } from '../dev/n8n/queue';
import { newCallbackSecret, startStack } from '../dev/n8n/stack';
import { describeDecision, describeResult, executeWorkflow, followExecutions } from '../dev/n8n/summary';
import { call } from '../dev/mock/client';
import { startMockService } from '../dev/mock/server';

const t0 = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${line}`);

const URL_EXAMPLE = 'cmExample01Url00';
const SUBMIT_EXAMPLE = 'cmExample03Sub00';
const TRIGGER_EXAMPLE = 'cmExample03Trig0';
/** The human review loop: A moderates comments (POST /text) and queues doubtful ones; B's trigger gets the decisions. */
const LOOP_MODERATE = 'cmExample08Revw0';
const LOOP_DECISION = 'cmExample08bDec0';
const QUEUE = process.argv.slice(2).includes('--queue');
/** The review queue of example 08 (and of the demo's decision line). */
const REVIEW_QUEUE = 'comment-reviews';

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

	// The account webhook URL (the vendor's dashboard setting) is the Production URL of example 08b's trigger
	// (review decisions), with the Callback Secret in it: each decision starts that workflow.
	const trigger = stack.workflows.find((w) => w.id === LOOP_DECISION)?.nodes.find((n) => /contentModerationTrigger$/.test(n.type));
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
	for (const row of triggerRows) triggerLines.push(describeResult(await db.execution(row.id)));

	log('running example "human review loop, part A" once: Text > Moderate (POST /text) routes 4 comments...');
	const textSince = mock.requests.length;
	const loopRun = await executeWorkflow(stack, db, LOOP_MODERATE);
	const textPosts = mock.requests.slice(textSince).filter((r) => r.method === 'POST' && r.path === '/text').length;
	const textLines: string[] = [];
	for (const c of loopRun.items['Publish Now'] ?? []) textLines.push(`  SAFE     -> publish  "${c.comment}"`);
	for (const c of loopRun.items['Remove Now'] ?? []) textLines.push(`  FLAGGED  -> remove   post ${c.postId} (${c.reasons})`);
	const pending = loopRun.items['Pending Review'] ?? [];
	for (const c of pending) textLines.push(`  REVIEW   -> queue "${REVIEW_QUEUE}" item ${c.reviewItemId}: "${c.comment}"`);

	// A person accepts the first doubtful comment (the mock's decision stands in for the dashboard); the
	// decision reaches part B's trigger through the account webhook URL.
	let decisionLine = '  (no comment was sent for review)';
	if (pending.length > 0) {
		const itemId = String(pending[0].reviewItemId);
		const decidedBefore = (await db.executions(LOOP_DECISION)).length;
		const until = Date.now() + 30_000;
		while (Date.now() < until) {
			const item = await call(mock.url, 'GET', `/queues/${REVIEW_QUEUE}/items/${itemId}`, { token: mock.token });
			if (item.body.status === 'pending') break;
			await new Promise((r) => setTimeout(r, 200));
		}
		mock.decide(REVIEW_QUEUE, itemId, 'accepted');
		log(`accepted review item ${itemId}; waiting for part B's trigger...`);
		let rows = (await db.executions(LOOP_DECISION)).slice(decidedBefore);
		const deadline2 = Date.now() + 60_000;
		while (Date.now() < deadline2 && rows.filter((r) => r.status !== 'running' && r.status !== 'new').length < 1) {
			await new Promise((r) => setTimeout(r, 500));
			rows = (await db.executions(LOOP_DECISION)).slice(decidedBefore);
		}
		decisionLine = rows[0] ? describeDecision(await db.execution(rows[0].id)) : '  (no execution of part B within 60s)';
	}
	const next = pending[1] ?? pending[0];
	const decisionCurl = next
		? `curl -sS -X POST ${mock.url}/__mock/queues/${REVIEW_QUEUE}/items/${next.reviewItemId}/decision ` +
			`-H 'Authorization: Bearer ${mock.token}' -H 'Content-Type: application/json' -d '{"decision":"rejected"}'`
		: '';

	const { n8n, owner } = stack;
	console.log(`
==================================================================================================
 Example "moderate images from URLs" (execution #${urlRun.executionId}, ${urlRun.status}):
${lines.join('\n')}
  -> ${published} published, ${held} held for review

 Example "deferred moderation": ${submitted.length} images submitted (execution #${submitRun.executionId}, ${submitRun.status}),
 ids ${submitted.map((s) => s.id).join(', ')}; the service called the trigger back:
${triggerLines.join('\n') || '  (no trigger execution within 60s)'}

 Example "human review loop" (part A execution #${loopRun.executionId}, ${loopRun.status}): ${textPosts} POST /text, one per comment
${textLines.join('\n')}
 A review decision through the account webhook URL${webhookUrl ? ' (the Production URL of "Review Decision", example 08b)' : ' (none set)'}:
${decisionLine}
${next ? ` Reject the other one yourself (part B then runs Remove Comment):\n   ${decisionCurl}\n` : ''} Any pending item can be decided the same way (the mock answers 409 unless the item is pending).

 n8n editor:   ${n8n.url}/
 login:        ${owner.email} / ${owner.password}
 credential:   "Content Moderation account" -> ${mock.url} (mock service)${queue ? queueLines(queue) : ''}
 workflows:    ${stack.workflows.map((w) => w.name.replace(/^Content Moderation: /, '')).join(' | ')}
 Press Ctrl-C to stop n8n and the mock service.
==================================================================================================
 Later executions of the examples' triggers (a decision made with the curl line above, say):`);
	await followExecutions(
		db,
		[
			{ workflowId: TRIGGER_EXAMPLE, describe: describeResult },
			{ workflowId: LOOP_DECISION, describe: describeDecision },
		],
		(line) => console.log(line),
		following.signal,
	);
}

/** Stops the demo's reading of n8n's records before everything it started is stopped. */
const following = new AbortController();
process.once('SIGINT', () => following.abort());
process.once('SIGTERM', () => following.abort());

runInteractive('npm start', running, main);

function queueLines(q: QueueStack): string {
	return `
 queue mode:   webhook processor ${q.webhookUrl}/webhook/... (the triggers' Production URLs point here);
               ${q.workers.map((w) => `${w.name} (health ${w.url})`).join(', ')};
               Postgres 127.0.0.1:${q.postgres.port}, Redis 127.0.0.1:${q.redis.port}
 logs:         ${q.n8n.userFolder}/{n8n,worker-1,worker-2,webhook}.log ("Worker started execution N", "Enqueued execution N")`;
}
