import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { getId } from '../../shared/inputs';
import type { ApiResponse } from '../../shared/transport';
import { apiRequest, pathSegment } from '../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Image ID',
		name: 'imageId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 3f1c2a9e-…',
		description:
			'ID of the image moderation, as returned by Image > Moderate in a Deferred mode or sent to the Content Moderation Trigger',
	},
];

export const description = showFor({ resource: ['image'], operation: ['get'] }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = getId(this, itemIndex, 'imageId', 'Image ID');
	const response = (await apiRequest.call(this, {
		method: 'GET',
		path: `/image/${pathSegment(id)}`,
		itemIndex,
	})) as ApiResponse<IDataObject>;
	return response.body;
}
