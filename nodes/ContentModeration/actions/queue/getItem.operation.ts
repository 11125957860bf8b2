import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { getId } from '../../shared/inputs';
import type { ApiResponse } from '../../shared/transport';
import { apiRequest, pathSegment } from '../../shared/transport';
import { queueIdProperty } from './queueId';

const properties: INodeProperties[] = [
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
];

export const description = showFor({ resource: ['queue'], operation: ['getItem'] }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	// The spec gives this operation's path parameters a minimum length of 3.
	const queueId = getId(this, itemIndex, 'queueId', 'Queue ID');
	const itemId = getId(this, itemIndex, 'itemId', 'Item ID');
	const response = (await apiRequest.call(this, {
		method: 'GET',
		path: `/queues/${pathSegment(queueId)}/items/${pathSegment(itemId)}`,
		itemIndex,
	})) as ApiResponse<IDataObject>;
	return response.body;
}
