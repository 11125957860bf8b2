/**
 * Case 50: On Error "Continue (using error output)" with an item that fails before any request (Image ID
 * "x", an error with a description). n8n 2.x moves its error item ({error, details}) to the Error output;
 * n8n 1.x moves only {error} or {error, message}, so there it stays on the regular output (the limit
 * docs/operations.md states). Either way n8n added the Error output, one error item, paired, and nothing sent.
 */
import { runManually } from '../../../dev/n8n/summary';
import { N8N_MAJOR } from '../../../dev/n8n/install';
import { assert, E2eContext } from '../context';

export const ERROR_OUTPUT_WORKFLOW = 'cmE2eErrorOut001';

export async function errorOutput(ctx: E2eContext): Promise<string> {
	const since = ctx.mock.requests.length;
	// One read of n8n's record: the items for the assertions, its raw run data for the pairing.
	const run = await ctx.db.execution(await runManually(ctx.stack.rest, ctx.db, ERROR_OUTPUT_WORKFLOW, 180_000));
	assert(run.status === 'success', `execution #${run.id} status ${run.status}`);
	// n8n added the Error output (else "Continue (using error output)" was not applied), and the item is on one.
	const outputs = run.raw.resultData.runData['Get Image'][0].data.main as Array<Array<{ json: any; pairedItem?: any }>>;
	assert(outputs.length === 2, `Get Image has ${outputs.length} outputs, expected the regular one and n8n's Error output`);
	const on = N8N_MAJOR >= 2 ? 1 : 0;
	const where = N8N_MAJOR >= 2 ? 'Error Output' : 'Regular Output';
	const counts = outputs.map((out) => out?.length ?? 0);
	assert(counts[on] === 1 && counts[1 - on] === 0, `n8n ${N8N_MAJOR}.x: regular ${counts[0]} items, error ${counts[1]}; expected one on ${where}`);
	assert(outputs[on][0].pairedItem?.item === 0, `the error item's pairedItem: ${JSON.stringify(outputs[on][0].pairedItem)}`);
	const reached = (run.items[where] ?? []).length;
	assert(reached === 1, `${where} received ${reached} items`);
	const item = outputs[on][0].json;
	assert(/Image ID/.test(String(item.error)) && typeof item.details?.description === 'string', `the error item: ${JSON.stringify(item).slice(0, 300)}`);
	const sent = ctx.mock.requests.length - since;
	assert(sent === 0, `${sent} requests sent for an invalid Image ID`);
	return `n8n ${N8N_MAJOR}.x: the {error, details} item on ${where}: "${String(item.error).slice(0, 80)}"`;
}
