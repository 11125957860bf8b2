import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as moderate from './moderate.operation';

export const operations: Record<string, Operation> = { moderate, get, delete: del };

/** The operation list; `moderateLabel` differs by version (versions 1-2 moderate through a review queue). */
function operationProperty(moderateLabel: string, moderateDescription: string, versions: IDisplayOptions['show']): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['text'], ...versions } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a text moderation',
				description: 'Delete a text moderation record by its ID; returns the ID and deleted: true',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a text moderation',
				description:
					'Read a text moderation by its ID: isSafe, scores, sentiment, language and the text with profanity masked',
			},
			{ name: moderateLabel, value: 'moderate', action: 'Moderate a text', description: moderateDescription },
		],
		// Stays Get: workflows saved with the default operation keep what they did.
		default: 'get',
	};
}

const RETURNS =
	'Returns isSafe (false: do not use it), suggestedActions (reject, review), nsfwCategories (flagged categories with severity), riskScores, sentiment, summary and filteredContent: the text with profanity masked by *, to use instead of the original.';

export const description: INodeProperties[] = [
	operationProperty(
		'Moderate (via Queue)',
		`Moderate a text (e.g. a chat message or comment) through a moderation queue and wait for the verdict. Takes the text. ${RETURNS}`,
		{ '@version': [{ _cnd: { lte: 2 } }] },
	),
	operationProperty(
		'Moderate',
		`Moderate a text (e.g. a chat message or comment) and get the verdict at once, or deferred. Takes the text. ${RETURNS}`,
		{ '@version': [{ _cnd: { gte: 3 } }] },
	),
	...moderate.description,
	...get.description,
	...del.description,
];
