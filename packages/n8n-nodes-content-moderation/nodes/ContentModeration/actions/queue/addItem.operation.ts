import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { imageInputProperties } from '../../descriptions/imageInput';
import { optionsCollection } from '../../descriptions/options';
import { pathSegment } from '../../transport/baseUrl';
import type { NodeRun } from '../operation';
import { checkNotEmpty } from '../../validation/checks';
import { ensure, getId, getOptions, optionalString, readImage } from '../../validation/parameters';
import { queueIdProperty } from './queueId';

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
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description: 'The text to moderate',
		displayOptions: { show: { contentType: ['text'] } },
	},
	...updateDisplayOptions({ show: { contentType: ['image'] } }, imageInputProperties),
	...optionsCollection(
		[
			{
				displayName: 'Metadata',
				name: 'meta',
				type: 'string',
				default: '',
				description: 'Text stored with the item, for example an order number or a JSON string',
			},
		],
		{ sendsImages: true },
	),
];

export const toolDescription =
	'Add a text or an image to a moderation queue; returns the new item\'s ID, its status and the queue ID, to read the item later by those IDs';

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
	const options = getOptions(this, itemIndex);
	const fields: IDataObject = {};
	const meta = optionalString(options.meta);
	if (meta !== undefined) fields.meta = meta;
	const actorId = optionalString(options.actorId);
	if (actorId !== undefined) fields.actorId = actorId;

	// An image is read last, as it may wait for room in the run's byte budget; released once answered.
	const { image, release } =
		type === 'image'
			? await readImage(this, itemIndex, client, run.maxImageBytes)
			: { image: undefined, release: () => {} };
	const content =
		image ??
		ensure(
			this,
			itemIndex,
			checkNotEmpty(
				this.getNodeParameter('text', itemIndex, ''),
				'Text',
				'Enter the text to moderate, or map it from a previous node (for example {{ $json.comment }}).',
			),
		);
	const body: IDataObject = { type, content, ...fields };

	let response;
	try {
		response = await client.request<IDataObject>({ method: 'POST', path: `/queues/${pathSegment(queueId)}`, body, itemIndex });
	} finally {
		release();
	}
	// queueId is added so that a following Queue > Get Item can use {{ $json.queueId }} and {{ $json.id }}.
	return { ...response.body, queueId };
}
