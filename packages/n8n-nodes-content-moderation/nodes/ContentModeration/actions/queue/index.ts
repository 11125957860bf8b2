import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import * as addItem from './addItem.operation';
import * as getItem from './getItem.operation';

export const operations: Record<string, Operation> = { addItem, getItem };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['queue'] } },
		options: [
			{
				name: 'Add Item',
				value: 'addItem',
				action: 'Add an item to a queue',
				description:
					'Add a text or an image to a review queue, where it is moderated and then waits for a person to accept or reject it; returns the item ID, its status and the queue ID',
			},
			{
				name: 'Get Item',
				value: 'getItem',
				action: 'Get a queue item',
				description:
					'Read a review queue item: its status (processing, pending, accepted, rejected, error), its moderation once processed; can route by the decision',
			},
		],
		default: 'addItem',
	},
	...addItem.description,
	...getItem.description,
];
