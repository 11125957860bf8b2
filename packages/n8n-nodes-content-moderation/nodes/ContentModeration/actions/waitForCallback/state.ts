/**
 * What a waiting Wait for Callback run keeps, and the outputs made of it on resume (finalOutputs). Kept in
 * the node's context, which n8n saves with the waiting execution: a callback may reach another n8n process
 * or a restarted one. Results are not kept (the webhook cannot write without resuming): they are read back.
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

/**
 * The state as a callback sees it: a webhook context has no getContext(), so it is read through an expression
 * (`{{ $node["Name"].context }}`), with braces in the node name escaped so that they cannot end it.
 */
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

/**
 * The node's final outputs: one item per input item, in input order, paired to it: the result (`resultOf`
 * gives one read back), or the error item kept when its submission failed under On Error: Continue.
 */
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
