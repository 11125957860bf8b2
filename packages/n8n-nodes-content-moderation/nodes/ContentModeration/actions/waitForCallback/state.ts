/**
 * What a waiting run keeps in node context, which n8n saves with the execution: a callback may reach another
 * process. Results are not kept (the webhook cannot write without resuming): they are read back.
 */
import type { IDataObject, INode, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { routeResults, type RoutingPlan, type VerdictFacts } from '../../verdict/outputs';

export const STATE_KEY = 'waitForCallback';

/** One input item: waiting for moderation `id`, already answered (`result`), or failed (`error` item JSON). */
export type ItemState = { id: string } | { result: IDataObject } | { error: IDataObject };

export interface WaitState {
	/** Secret of this execution's callback URLs (per-item keys are derived from it); never output */
	secret: string;
	/** One entry per input item, in input order */
	items: ItemState[];
	/** ISO time the Wait Timeout runs out */
	deadline?: string;
	continueOnFail?: boolean;
	/** On an n8n without resume tokens (1.x), which has no atomic resume either: the one item whose callback may resume */
	resumer?: number;
	/** Present when Route by Verdict is on: the rules read per item when the items were submitted */
	routing?: RoutingPlan;
}

/** A webhook context has no getContext(): read through an expression, braces in the node name escaped. */
export function readState(ctx: IWebhookFunctions): WaitState | undefined {
	const name = JSON.stringify(ctx.getNode().name).replace(/[{}]/g, (c) => (c === '{' ? '\\u007b' : '\\u007d'));
	const value = ctx.evaluateExpression(`{{ $node[${name}].context[${JSON.stringify(STATE_KEY)}] }}`);
	if (typeof value !== 'object' || value === null) return undefined;
	const state = value as unknown as WaitState;
	if (typeof state.secret !== 'string' || !Array.isArray(state.items)) return undefined;
	return state;
}

export function waitingId(item: ItemState | undefined): string | undefined {
	return item !== undefined && 'id' in item ? item.id : undefined;
}

/** The final outputs: per input item, in order, its result or the error item its submission left. */
export function finalOutputs(
	node: INode,
	facts: VerdictFacts,
	state: WaitState,
	resultOf: (itemIndex: number, id: string) => IDataObject | undefined,
	inputs: INodeExecutionData[],
): INodeExecutionData[][] {
	const items = state.items.map((item, itemIndex): INodeExecutionData => {
		const pairedItem = { item: itemIndex };
		if ('error' in item) return { json: item.error, pairedItem };
		const json = 'result' in item ? item.result : resultOf(itemIndex, item.id);
		return { json: json ?? {}, pairedItem };
	});
	if (!state.routing) return [items];
	return routeResults(
		{ node, facts, plan: state.routing, inputs, continueOnFail: state.continueOnFail === true },
		items,
	);
}
