import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import * as del from './delete.operation';
import * as get from './get.operation';

export const operations: Record<string, Operation> = { get, delete: del };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['text'] } },
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
		],
		default: 'get',
	},
	...get.description,
	...del.description,
];
