/**
 * Callback > Receive's memory of the completions it passed on, in the process's delivery registry
 * (inbound/deliveries.ts): in a production execution a completion delivered again passes nothing on, or
 * passes on marked `duplicate: true` when the option says so. Manual executions always pass on. Whether
 * a completion counts as passed on is settled with the node run by the router (the run's claims).
 */
import type { IDataObject, IExecuteFunctions, WorkflowExecuteMode } from 'n8n-workflow';

import { completionKey, type RunClaims } from '../../inbound/deliveries';

/** Executions n8n started from a published workflow's webhook or trigger; 'manual' and 'retry' always pass on. */
const PRODUCTION_MODES: ReadonlyArray<WorkflowExecuteMode> = ['webhook', 'trigger'];

/**
 * Whether this item's completion was passed on already in this process; otherwise the run holds it until
 * the run ends. An item of the same run with the same completion waits for this one's outcome.
 */
export async function isRepeat(
	this: IExecuteFunctions,
	claims: RunClaims,
	itemIndex: number,
	event: string,
	data: IDataObject & { id: string },
): Promise<boolean> {
	if (data.id === '' || !PRODUCTION_MODES.includes(this.getMode())) return false;
	// Per workflow and node, by id (a rename keeps it): another workflow (or another Receive) passes it on too.
	const key = completionKey([String(this.getWorkflow().id ?? ''), 'receive', this.getNode().id], event, data);
	return await claims.isRepeat(key, itemIndex);
}
