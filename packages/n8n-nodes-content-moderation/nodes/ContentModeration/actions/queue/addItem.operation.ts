import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { imageInputProperties } from '../../descriptions/imageInput';
import { optionsCollection } from '../../descriptions/options';
import { textInputProperty } from '../../descriptions/textInput';
import { putMetadata, queueMetadataValue } from '../../validation/metadata';
import { addQueueItem } from '../../transport/endpoints';
import { operationError } from '../../helpers/errorItems';
import type { NodeRun } from '../operation';
import { ensure, getActorId, getId, getOptions, getText, imageInput, withImage } from '../../validation/parameters';
import { queueIdProperty } from './queueId';

export const description: INodeProperties[] = [
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
	...optionsCollection(
		[
			{
				displayName: 'Metadata',
				name: 'meta',
				type: 'string',
				default: '',
				placeholder: 'e.g. {"postId": "p-17"}',
				description:
					'Stored with the item, for example {"postId": "p-17"} or an order number. A JSON object is sent as an object; other text as text.',
			},
		],
		// A text item sends no image: Max Image Size is offered only for Content Type Image.
		{ sendsImages: { '/contentType': ['image'] } },
	),
];

export const toolDescription =
	"Add a text or an image to a review queue for a person to accept or reject; returns the new item's ID, its status (processing) and the queue ID, to read the item and its decision later by those IDs";

export const option: INodePropertyOptions = {
	name: 'Add Item',
	value: 'addItem',
	action: 'Add an item to a queue',
	description:
		'Add a text or an image to a review queue, where it is moderated and then waits for a person to accept or reject it; returns the item ID, its status and the queue ID',
};

export async function execute(this: IExecuteFunctions, itemIndex: number, run: NodeRun): Promise<IDataObject> {
	const queueId = getId(this, itemIndex, 'queueId', 'Queue ID');
	const type = this.getNodeParameter('contentType', itemIndex, 'text');
	if (type !== 'text' && type !== 'image') {
		const fix = 'Choose Text or Image (a workflow edited by hand, or an expression, may give another value).';
		throw operationError(this.getNode(), itemIndex, `Unknown Content Type "${String(type)}"`, fix);
	}
	const options = getOptions(this, itemIndex);
	// Only the options that are set are sent.
	const fields: IDataObject = {};
	const meta = ensure(this, itemIndex, queueMetadataValue(options.meta));
	if (meta !== undefined) putMetadata(fields, meta);
	const actorId = getActorId(this, itemIndex, options);
	if (actorId !== undefined) fields.actorId = actorId;

	// An image is read only once its request may go out (the process's byte budget has room for it).
	const body =
		type === 'image'
			? withImage(await imageInput(this, itemIndex, run.maxImageBytes), (content) => ({ type, content, ...fields }))
			: { type, content: getText(this, itemIndex), ...fields };
	// With queueId, a following Queue > Get Item can use {{ $json.queueId }} and {{ $json.id }}.
	return { ...(await addQueueItem(run.client, queueId, body, itemIndex)).body, queueId };
}
