/** Route by Decision (Queue > Get Item): nothing undecided may reach Accepted (publish) or Rejected (remove). */
import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { isErrorItem } from '../../verdict/outputs';

export const DECISION_OUTPUT = { accepted: 0, rejected: 1, pending: 2 } as const;
export type Decision = keyof typeof DECISION_OUTPUT;

export const decisionProperties: INodeProperties[] = [
	{
		displayName: 'Route by Decision',
		name: 'routeByDecision',
		type: 'boolean',
		default: false,
		noDataExpression: true,
		displayOptions: { show: { routeByVerdict: [false] } },
		description:
			"Whether to send each item to an Accepted, Rejected or Pending output by the reviewer's decision (status), instead of one output. Items not decided yet, or whose moderation failed (status error), go to Pending.",
	},
];

/** The status a person set, else Pending; `accepted` alone counts for a service that sets only the boolean. */
export function decisionOf(item: IDataObject): Decision {
	if (item.status === 'accepted' || item.status === 'rejected') return item.status;
	return item.status === undefined && item.accepted === true ? 'accepted' : 'pending';
}

const FAILED_NOTE =
	'The automatic moderation of this item failed: no decision will come. Add the content again or decide without the service.';

/** Error items go to Pending; `decision` is added at the top of each routed item. */
export function routeByDecision(results: INodeExecutionData[]): INodeExecutionData[][] {
	const outputs: INodeExecutionData[][] = [[], [], []];
	for (const item of results) {
		if (isErrorItem(item)) {
			outputs[DECISION_OUTPUT.pending].push(item);
			continue;
		}
		const decision = decisionOf(item.json);
		const note = item.json.status === 'error' ? { decisionNote: FAILED_NOTE } : {};
		outputs[DECISION_OUTPUT[decision]].push({ ...item, json: { ...item.json, decision, ...note } });
	}
	return outputs;
}
