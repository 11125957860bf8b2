/** The node's final outputs in Wait for Callback mode, from the saved state and every item's result. */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { routeResults, type VerdictFacts } from '../../verdict/outputs';
import type { WaitState } from './state';

/**
 * One item per input item, in input order, paired to it: the result, or the error item kept when its
 * submission failed under On Error: Continue. `resultOf` gives a result read back.
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
