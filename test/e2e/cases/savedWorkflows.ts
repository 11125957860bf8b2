/**
 * Case 20: workflows saved at today's node versions (version 1 of both nodes) keep working after the
 * nodes gained version 2. The trigger holds a Callback Token typed in (a field version 2 no longer shows);
 * the submitter keeps its Request Options and a Callback URL with that token pasted in (version 2 refuses
 * one). Imported as saved, run with `n8n execute`; the results are read from n8n's own records.
 */
import { join } from 'node:path';
import { readWorkflow } from '../../../dev/n8n/stack';
import { executeWorkflow } from '../../../dev/n8n/summary';
import { sleep, waitFor } from '../../../dev/wait';
import { assert, E2eContext, finishedExecutions } from '../context';

const WORKFLOWS = join(__dirname, '..', 'workflows');
export const SAVED_V1_TRIGGER = readWorkflow(join(WORKFLOWS, 'saved-v1-trigger.json'));
const SAVED_V1_SUBMIT = readWorkflow(join(WORKFLOWS, 'saved-v1-submit.json'));
const FIELD_TOKEN = 'saved-v1-field-token';

export async function savedWorkflows(ctx: E2eContext): Promise<string> {
	const trigger = SAVED_V1_TRIGGER.nodes[0];
	const submitter = SAVED_V1_SUBMIT.nodes.find((n) => /contentModeration$/.test(n.type))!;
	assert(trigger.typeVersion === 1 && submitter.typeVersion === 1, 'the saved workflows are not at version 1');
	assert(trigger.parameters.callbackToken === FIELD_TOKEN && submitter.parameters.requestOptions, 'the saved workflows lost their v1 fields');
	const url = `${ctx.stack.webhookUrl}/webhook/${trigger.webhookId}/callback`;

	// The typed token is still checked: a call without it is refused and starts nothing.
	const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"saved-v1-forged"}' });
	assert(refused.status === 401, `a callback without the saved Callback Token got ${refused.status}`);

	const before = (await finishedExecutions(ctx.db, SAVED_V1_TRIGGER.id)).length;
	const since = ctx.mock.requests.length;
	const run = await executeWorkflow(ctx.stack, ctx.db, SAVED_V1_SUBMIT.id);
	assert(run.status === 'success', `submitter execution #${run.executionId} status ${run.status}`);
	const [submitted] = run.items[submitter.name] ?? [];
	assert(typeof submitted?.id === 'string', `the saved submitter returned ${JSON.stringify(submitted)}`);

	// What the service got: the pasted URL as it was saved (its token kept, not replaced by the credential's).
	const posts = ctx.mock.requests.slice(since).filter((r) => r.method === 'POST' && r.path === '/image');
	const sent = (posts[0]?.body as { options?: { callbackUrl?: string; actorId?: string } })?.options;
	assert(posts.length === 1 && sent?.callbackUrl === `${url}?token=${FIELD_TOKEN}` && sent.actorId === 'saved-v1-user', `the service got ${JSON.stringify(sent)}`);

	// The service calls back with that token; the version 1 trigger accepts it and starts once.
	const [execution] = await waitFor(
		'the saved trigger to run',
		async () => {
			const rows = await finishedExecutions(ctx.db, SAVED_V1_TRIGGER.id);
			return rows.length > before ? rows.slice(before) : undefined;
		},
		60_000,
	);
	await sleep(1500); // a second delivery would show up here
	const after = await finishedExecutions(ctx.db, SAVED_V1_TRIGGER.id);
	assert(after.length - before === 1 && execution.status === 'success', `${after.length - before} trigger executions, status ${execution.status}`);
	const detail = await ctx.db.execution(execution.id);
	const [item] = detail.items[trigger.name] ?? [];
	assert(item?.id === submitted.id && typeof item.isSafe === 'boolean', `the trigger got ${JSON.stringify(item).slice(0, 300)}`);
	return `v1 submitter #${run.executionId} (Request Options, pasted ?token=) -> v1 trigger #${execution.id} (Callback Token) with ${String(item.id).slice(0, 8)}; no token -> 401`;
}
