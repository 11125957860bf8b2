import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { showFor } from '../../shared/descriptions';
import { getId } from '../../shared/inputs';
import { apiRequest, pathSegment } from '../../shared/transport';
import { textIdProperty } from './textId';

export const description = showFor({ resource: ['text'], operation: ['delete'] }, [textIdProperty]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const id = getId(this, itemIndex, 'textId', 'Text ID');
	await apiRequest.call(this, { method: 'DELETE', path: `/text/${pathSegment(id)}`, itemIndex });
	// The spec shows no response body for a delete; n8n's convention is {id, deleted: true}.
	return { id, deleted: true };
}
