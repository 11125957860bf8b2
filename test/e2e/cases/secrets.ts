/**
 * Case 9: the callback secret end to end. A spec-shaped callback (the image result of spec 2.2, no id)
 * starts the published trigger; a wrong secret gets 401 and starts nothing; then n8n's database file and
 * its exported workflows (and credentials, encrypted as exported by default) and its log are searched for the secret,
 * after every case before this one (deferred deliveries, 200 callbacks, wrong tokens) has run.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sleep, waitFor } from '../../../dev/wait';
import { assert, E2eContext, finishedExecutions } from '../context';
import { callbackUrl, deferredWithTrigger, TRIGGER_WORKFLOW, triggerUrl } from './deferred';

/** The forms the secret could be stored in. */
function forms(secret: string): string[] {
	return [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), Buffer.from(secret).toString('base64')];
}

function countHits(bytes: Buffer, secret: string): number {
	let hits = 0;
	for (const form of new Set(forms(secret))) {
		const needle = Buffer.from(form, 'utf8');
		for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) hits++;
	}
	return hits;
}

async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(30_000),
	});
	return { status: response.status, body: await response.json().catch(() => undefined) };
}

export async function secrets(ctx: E2eContext): Promise<string> {
	const secret = ctx.stack.callbackSecret;
	const workflowId = TRIGGER_WORKFLOW.id;
	// The records must hold a delivery made with the secret (case 2 makes one; alone, this case does).
	const carried = () => ctx.mock.requests.filter((r) => JSON.stringify(r.body ?? '').includes(encodeURIComponent(secret))).length;
	if (carried() === 0) await deferredWithTrigger(ctx);

	// A result as GET /image/{id} returns it (spec 2.2): no id.
	const res = await fetch(`${ctx.mock.url}/image`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.mock.token}` },
		body: JSON.stringify({ image: 'https://images.example.com/spec-shaped-callback.jpg' }),
	});
	const { id: _id, ...specShaped } = (await res.json()) as Record<string, unknown>;
	assert(typeof specShaped.isSafe === 'boolean' && !('id' in specShaped), `not a spec-shaped result: ${JSON.stringify(specShaped)}`);

	const before = (await ctx.db.executions(workflowId)).length;
	const wrong = await post(callbackUrl(ctx, `${secret}x`), specShaped);
	const none = await post(triggerUrl(ctx), specShaped);
	assert(wrong.status === 401 && none.status === 401, `wrong secret answered ${wrong.status}, no secret ${none.status}`);
	await sleep(1500);
	assert((await ctx.db.executions(workflowId)).length === before, 'a refused callback started an execution');

	const accepted = await post(callbackUrl(ctx), specShaped);
	assert(
		accepted.status === 200 && accepted.body?.received === true && accepted.body?.id === null,
		`spec-shaped callback answered ${accepted.status} ${JSON.stringify(accepted.body)}`,
	);
	const [run] = await waitFor(
		'the execution of the callback without id',
		async () => {
			const rows = (await finishedExecutions(ctx.db, workflowId)).slice(before);
			return rows.length > 0 ? rows : undefined;
		},
		30_000,
	);
	assert(run.status === 'success', `execution ${run.id} status ${run.status}`);
	// n8n 1.x can show the execution finished a moment before its data holds the trigger's output.
	let detail = await ctx.db.execution(run.id);
	detail = await waitFor(
		() => `execution ${run.id}'s trigger output (nodes with output: ${Object.keys(detail.items).join(', ') || 'none'})`,
		async () => ((detail = await ctx.db.execution(run.id)).items['Moderation Completed']?.length ? detail : undefined),
		10_000,
	);
	const [item] = detail.items['Moderation Completed'];
	assert(item && item.id === null && /no id/.test(item.warning) && item.hash === specShaped.hash, `trigger item: ${JSON.stringify(item).slice(0, 400)}`);
	const branch = (detail.items['Approve'] ?? []).length ? 'Approve' : 'Send to Review';
	assert((detail.items[branch] ?? []).length === 1, 'the workflow did not go on past the trigger');

	// n8n's records after everything this run did: the database file (with its journal files) and exports.
	const exportDir = mkdtempSync(join(tmpdir(), 'cm-export-'));
	try {
		for (const [command, file] of [
			['export:workflow', 'workflows.json'],
			['export:credentials', 'credentials.json'],
		]) {
			const r = await ctx.stack.n8n.cli([command, '--all', `--output=${join(exportDir, file)}`]);
			assert(r.code === 0, `n8n ${command} failed (${r.code}): ${(r.stdout + r.stderr).slice(-500)}`);
		}
		const exported = readFileSync(join(exportDir, 'workflows.json'));
		assert(exported.includes('Moderation Completed'), 'the workflow export holds no trigger workflow');
		// n8n's database as stored: the sqlite files, or in queue mode a pg_dump of its Postgres database.
		const stored = await ctx.db.contents();
		const storedBytes = stored.reduce((n, c) => n + c.bytes.length, 0);
		assert(storedBytes > 0, `no database content was searched (${stored.map((c) => c.name).join(', ') || 'none found'})`);
		// The search reads what n8n wrote: the trigger workflow's node name is in it.
		assert(stored.some((c) => c.bytes.includes('Moderation Completed')), `${stored.map((c) => c.name).join(' + ')} holds no trigger workflow`);
		const hits: string[] = [];
		for (const { name, bytes } of stored) {
			const n = countHits(bytes, secret);
			if (n > 0) hits.push(`${name}: ${n}`);
		}
		for (const file of ['workflows.json', 'credentials.json']) {
			const n = countHits(readFileSync(join(exportDir, file)), secret);
			if (n > 0) hits.push(`export ${file}: ${n}`);
		}
		// The logs of every n8n process of this run (main's n8n.log; in queue mode the workers' and the webhook
		// processor's too), and n8n's event logs.
		const folder = ctx.stack.n8n.userFolder;
		const logs = [folder, join(folder, '.n8n')].flatMap((dir) =>
			existsSync(dir) ? readdirSync(dir).filter((f) => /\.log$/.test(f)).map((f) => join(dir, f)) : [],
		);
		assert(logs.some((f) => f.endsWith('/n8n.log')), `no n8n.log among the logs searched: ${logs.join(', ')}`);
		for (const file of logs) {
			const n = countHits(readFileSync(file), secret);
			if (n > 0) hits.push(`${file.slice(folder.length + 1)}: ${n}`);
		}
		// The secret went out with the submissions (so n8n had it in hand), yet none of its records holds it.
		const sent = carried();
		assert(sent > 0, 'the service was never sent the secret, so the search proves nothing');
		assert(countHits(Buffer.from(JSON.stringify(ctx.mock.requests)), secret) > 0, 'the search does not find the secret where it is');
		assert(hits.length === 0, `the callback secret was found: ${hits.join(', ')}`);
		const executions = (await ctx.db.executions(workflowId)).length;
		return `id-less callback -> execution ${run.id} (id null, warning, ${branch}); wrong/no secret -> 401, 0 executions; secret in ${stored.map((c) => c.name).join(' + ')} (${(storedBytes / 1e6).toFixed(1)} MB), exports and ${logs.length} logs (${logs.map((f) => f.slice(folder.length + 1)).join(', ')}) after ${executions} trigger executions: 0 hits (${sent} service requests carried it)`;
	} finally {
		rmSync(exportDir, { recursive: true, force: true });
	}
}
