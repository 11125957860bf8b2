import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { imageInputProperties } from '../../descriptions/imageInput';
import { optionsCollection } from '../../descriptions/options';
import { textInputProperty } from '../../descriptions/textInput';
import type { NodeRun } from '../operation';
import { getId, getText, imageInput, withImage } from '../../validation/parameters';
import { queueIdProperty, queueMetaOption } from './queueId';
import { addItem, queueItemOptions } from './itemBody';

const properties: INodeProperties[] = [
	queueIdProperty,
	{
		displayName: 'Content Type',
		name: 'contentType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Text', value: 'text' },
			{ name: 'Image', value: 'image' },
		],
		default: 'text',
		description: 'What kind of content to add to the queue',
	},
	{ ...textInputProperty, displayOptions: { show: { contentType: ['text'] } } },
	...updateDisplayOptions({ show: { contentType: ['image'] } }, imageInputProperties),
	...optionsCollection([queueMetaOption], { sendsImages: true }),
];

export const toolDescription =
	'Add a text or an image to a review queue for a person to accept or reject; returns the new item\'s ID, its status (processing) and the queue ID, to read the item and its decision later by those IDs';

export const option: INodePropertyOptions = {
	name: 'Add Item',
	value: 'addItem',
	action: 'Add an item to a queue',
	description:
		'Add a text or an image to a review queue, where it is moderated and then waits for a person to accept or reject it; returns the item ID, its status and the queue ID',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['queue'], operation: ['addItem'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: NodeRun,
): Promise<IDataObject> {
	const { client } = run;
	// Identifier path parameters have at least 3 characters (spec 8), this one too.
	const queueId = getId(this, itemIndex, 'queueId', 'Queue ID');
	const type = this.getNodeParameter('contentType', itemIndex, 'text') as 'text' | 'image';
	const fields = queueItemOptions(this, itemIndex);

	// An image is read only once its request may go out (the process's byte budget has room for it).
	const body =
		type === 'image'
			? withImage(await imageInput(this, itemIndex, run.maxImageBytes), (content) => ({ type, content, ...fields }))
			: { type, content: getText(this, itemIndex), ...fields };
	return await addItem(client, queueId, body, itemIndex);
}
