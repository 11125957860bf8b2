import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { operationError } from '../../helpers/errorItems';
import { isObject } from '../../helpers/json';
import { requestSettingsCollection } from '../../descriptions/options';
import type { NodeRun, Operation } from '../operation';
import { getId } from '../../validation/parameters';
import { verdictProperties } from '../../verdict/description';
import type { VerdictFacts } from '../../verdict/outputs';
import { queueIdProperty } from './queueId';
import { decisionProperties, routeByDecision } from './decision';
import { getQueueItem } from '../../transport/endpoints';

export const description: INodeProperties[] = [
	queueIdProperty,
	{
		displayName: 'Item ID',
		name: 'itemId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 5d0c4b2a-…',
		description: 'ID of the queue item, as returned by Queue > Add Item',
	},
	...verdictProperties,
	...decisionProperties,
	...requestSettingsCollection(),
];

export const toolDescription =
	'Get a review queue item by its queue ID and item ID: its status (processing, pending, accepted, rejected or error), accepted (true once a person accepted it), its content and, once processed, its moderation (isSafe and scores)';

export const option: INodePropertyOptions = {
	name: 'Get Item',
	value: 'getItem',
	action: 'Get a queue item',
	description:
		'Read a review queue item: its status (processing, pending, accepted, rejected, error), its moderation once processed; can route by the decision',
};

export const verdict: VerdictFacts = {
	// null until the item is processed
	analysisOf: (result) => (isObject(result.moderation) ? result.moderation : undefined),
	// The automatic moderation is not the last word: a person's rejection flags, an undecided item awaits review.
	standingOf(result) {
		if (result.status === 'rejected') return { flag: 'a reviewer rejected it (status "rejected")' };
		if (result.status === 'pending') return { review: 'awaiting a reviewer\'s decision (status "pending")' };
		return undefined;
	},
	missingAnalysis(node, result, itemIndex) {
		// The service's answer names the item; a missing id must not read as `queue item ""`.
		const named = (typeof result.id === 'string' && result.id !== '') || Number.isFinite(result.id);
		const item = named ? `queue item "${String(result.id)}"` : 'the queue item';
		// A failed moderation never gets one: a workflow told to read the item again would loop for ever.
		if (result.status === 'error') {
			const message = `The automatic moderation of ${item} failed (status "error"): no verdict will come, so Route by Verdict cannot decide one`;
			const fix = 'Do not read it again: add the content again, moderate it directly, or turn off Route by Verdict.';
			return operationError(node, itemIndex, message, fix);
		}
		if (isObject(result.moderation)) return undefined; // there but incomplete: the generic error says what it lacks
		const status = typeof result.status === 'string' ? ` (status "${result.status}")` : '';
		const message = `${item[0].toUpperCase()}${item.slice(1)} has no moderation yet${status}, so Route by Verdict cannot decide a verdict`;
		const description = 'Read the item again once it is processed, or turn off Route by Verdict.';
		return operationError(node, itemIndex, message, description);
	},
};

export async function execute(this: IExecuteFunctions, itemIndex: number, { client }: NodeRun): Promise<IDataObject> {
	const queueId = getId(this, itemIndex, 'queueId', 'Queue ID');
	const itemId = getId(this, itemIndex, 'itemId', 'Item ID');
	return (await getQueueItem(client, queueId, itemId, itemIndex)).body;
}

/** Route by Decision replaces the single output (Route by Verdict, when on, is the router's). */
export const finishRun: Required<Operation>['finishRun'] = async function (results, routing) {
	if (routing || this.getNodeParameter('routeByDecision', 0, false) !== true) return undefined;
	return routeByDecision(results);
};
