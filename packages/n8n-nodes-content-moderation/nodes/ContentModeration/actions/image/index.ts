import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import * as get from './get.operation';
import * as moderate from './moderate.operation';

export const operations: Record<string, Operation> = { moderate, get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['image'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get an image moderation',
				description:
					'Read an image moderation by its ID (e.g. from a deferred Moderate): the same result as Moderate returns, once processed',
			},
			{
				name: 'Moderate',
				value: 'moderate',
				action: 'Moderate an image',
				description:
					'Check an image (URL, base64 or file) and get its verdict: isSafe, risk scores, flagged categories, suggested actions',
			},
		],
		default: 'moderate',
	},
	...moderate.description,
	...get.description,
];
