import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { getId } from '../../shared/inputs';
import type { ApiResponse } from '../../shared/transport';
import { apiRequest, pathSegment } from '../../shared/transport';
import { textIdProperty } from './textId';

export const description = showFor({ resource: ['text'], operation: ['get'] }, [textIdProperty]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = getId(this, itemIndex, 'textId', 'Text ID');
	const response = (await apiRequest.call(this, {
		method: 'GET',
		path: `/text/${pathSegment(id)}`,
		itemIndex,
	})) as ApiResponse<IDataObject>;
	return response.body;
}
