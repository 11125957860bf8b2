/**
 * Case 50: On Error "Continue (using error output)" with an item that fails before any request (Image ID
 * "x", an error with a description). n8n 2.x moves its error item ({error, details}) to the Error output;
 * n8n 1.x moves only {error} or {error, message}, so there it stays on the regular output (the limit
 * docs/operations.md states). Either way one error item, paired, and nothing sent.
 */
import { executeWorkflow } from '../../../dev/n8n/summary';
import { N8N_MAJOR } from '../../../dev/n8n/install';
import { assert, E2eContext } from '../context';

export const ERROR_OUTPUT_WORKFLOW = 'cmE2eErrorOut001';

export async function errorOutput(ctx: E2eContext): Promise<string> {
	const since = ctx.mock.requests.length;
	const run = await executeWorkflow(ctx.stack, ctx.db, ERROR_OUTPUT_WORKFLOW);
	assert(run.status === 'success', `execution #${run.executionId} status ${run.status}`);
	const regular = run.items['Regular Output'] ?? [];
	const error = run.items['Error Output'] ?? [];
	const [expected, other] = N8N_MAJOR >= 2 ? [error, regular] : [regular, error];
	const where = N8N_MAJOR >= 2 ? 'Error Output' : 'Regular Output';
	assert(expected.length === 1 && other.length === 0, `n8n ${N8N_MAJOR}.x: regular ${regular.length} items, error ${error.length}; expected one on ${where}`);
	const item = expected[0];
	assert(/Image ID/.test(String(item.error)) && typeof item.details?.description === 'string', `the error item: ${JSON.stringify(item).slice(0, 300)}`);
	const sent = ctx.mock.requests.length - since;
	assert(sent === 0, `${sent} requests sent for an invalid Image ID`);
	return `n8n ${N8N_MAJOR}.x: the {error, details} item on ${where}: "${String(item.error).slice(0, 80)}"`;
}
