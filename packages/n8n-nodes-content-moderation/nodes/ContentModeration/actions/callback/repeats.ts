/**
 * Callback > Receive's memory of the completions it passed on, in the process's delivery registry
 * (callbacks/deliveries.ts): in a production execution a completion delivered again passes nothing on,
 * or passes on marked `duplicate: true` when the option says so. Manual executions always pass on.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, WorkflowExecuteMode } from 'n8n-workflow';

import { completionKey, deliveries, type HeldClaim } from '../../inbound/deliveries';

/** Executions n8n started from a published workflow's webhook or trigger; 'manual' and 'retry' always pass on. */
const PRODUCTION_MODES: ReadonlyArray<WorkflowExecuteMode> = ['webhook', 'trigger'];

/** Items of a node run that repeat a completion and pass nothing on. */
const dropped = new WeakMap<IExecuteFunctions, Set<number>>();

export type Repeat = { duplicate: true } | { duplicate: false; claim?: HeldClaim };

/**
 * Whether this item's completion was passed on already in this process, else the claim to commit when
 * it is passed on (release it when the item fails). Claimed before the first await: a delivery of it
 * handled at the same time waits for this one's outcome.
 */
export async function claimRepeat(
	this: IExecuteFunctions,
	event: string,
	data: IDataObject & { id: string },
): Promise<Repeat> {
	if (data.id === '' || !PRODUCTION_MODES.includes(this.getMode())) return { duplicate: false };
	// Per workflow and node: another workflow (or another Receive) receiving the completion passes it on too.
	const key = completionKey([String(this.getWorkflow().id ?? ''), 'receive', this.getNode().name], event, data);
	const claim = await deliveries.claimWhenFree(key);
	return claim.kind === 'duplicate' ? { duplicate: true } : { duplicate: false, claim };
}

/** Marks an item that passes nothing on (`dropRepeats` removes it once every item ran). */
export function dropItem(this: IExecuteFunctions, itemIndex: number): void {
	const items = dropped.get(this) ?? new Set<number>();
	items.add(itemIndex);
	dropped.set(this, items);
}

/** The run's items without those marked by `dropItem`. */
export function dropRepeats(this: IExecuteFunctions, results: INodeExecutionData[]): INodeExecutionData[] {
	const items = dropped.get(this);
	dropped.delete(this);
	if (items === undefined) return results;
	return results.filter((result) => {
		const paired = result.pairedItem;
		const index = typeof paired === 'object' && !Array.isArray(paired) ? paired.item : undefined;
		return index === undefined || !items.has(index);
	});
}
