import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { requestSettingsCollection } from '../../descriptions/options';
import type { NodeRun } from '../operation';
import { getId } from '../../validation/parameters';
import { deleteText } from '../../transport/endpoints';
import { textIdProperty } from './textId';

export const toolDescription = 'Delete a text moderation by its ID; returns the ID and deleted: true';

export const option: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a text moderation',
	description: 'Delete a text moderation record by its ID; returns the ID and deleted: true',
};

export const description: INodeProperties[] = [textIdProperty, ...requestSettingsCollection()];

export async function execute(this: IExecuteFunctions, itemIndex: number, { client }: NodeRun): Promise<IDataObject> {
	const id = getId(this, itemIndex, 'textId', 'Text ID');
	await deleteText(client, id, itemIndex);
	// The spec shows no response body for a delete; n8n's convention is {id, deleted: true}.
	return { id, deleted: true };
}
