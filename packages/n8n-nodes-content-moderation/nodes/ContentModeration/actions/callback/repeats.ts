/** Callback > Receive's memory of the completions it passed on: a repeat passes nothing, or `duplicate: true`. */
import type { IDataObject, IExecuteFunctions, WorkflowExecuteMode } from 'n8n-workflow';

import { completionKey } from '../../inbound/deliveries';
import { operationError } from '../../helpers/errorItems';
import type { RunClaims } from '../../inbound/runClaims';

/** Executions n8n started from a published workflow's webhook or trigger; 'manual' and 'retry' always pass on. */
const PRODUCTION_MODES: ReadonlyArray<WorkflowExecuteMode> = ['webhook', 'trigger'];

/** A callback's data with its id ('' when it has none). */
type CallbackData = IDataObject & { id: string };

/** The key of the item's completion, or undefined when repeats are not told apart (no id, not production). */
export function repeatKey(ctx: IExecuteFunctions, event: string, data: CallbackData): string | undefined {
	if (data.id === '' || !PRODUCTION_MODES.includes(ctx.getMode())) return undefined;
	// Per workflow and node, by id (a rename keeps it): another workflow (or another Receive) passes it on too.
	return completionKey([String(ctx.getWorkflow().id ?? ''), 'receive', ctx.getNode().id], event, data);
}

/** Whether the item's completion was passed on already; else the run holds it. Held elsewhere too long: fails. */
export async function isRepeatElseClaim(
	this: IExecuteFunctions,
	claims: RunClaims,
	itemIndex: number,
	event: string,
	data: CallbackData,
): Promise<boolean> {
	const key = repeatKey(this, event, data);
	if (key === undefined) return false;
	const turn = await claims.turn(key, itemIndex);
	if (turn !== 'busy') return turn === 'repeat';
	const message = `Another execution is still handling moderation ${data.id}`;
	const description =
		'This item did not pass the completion on: another execution of this workflow holds it, and passes it on unless that execution fails (a delivery of it again then does). Route this error (On Error) to read the result later with Image > Get or Text > Get.';
	throw operationError(this.getNode(), itemIndex, message, description);
}
