import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import * as receive from './receive.operation';

export const operations: Record<string, Operation> = { receive };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['callback'] } },
		options: [
			{
				name: 'Receive',
				value: 'receive',
				action: 'Receive a callback',
				description:
					"Check and complete a moderation callback received by n8n's Webhook node: verifies the Callback Secret, unwraps {event, data}, reads the full result when only an ID came",
			},
		],
		default: 'receive',
	},
	...receive.description,
];
