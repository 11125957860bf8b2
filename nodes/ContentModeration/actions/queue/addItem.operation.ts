import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { imageInputProperties, optionsCollection, showFor } from '../../shared/descriptions';
import { checkNotEmpty, ensure, getOptions, optionalString, readImage } from '../../shared/inputs';
import type { ApiResponse } from '../../shared/transport';
import { apiRequest, pathSegment } from '../../shared/transport';
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
	...showFor({ contentType: ['image'] }, imageInputProperties),
	optionsCollection([
		{
			displayName: 'Metadata',
			name: 'meta',
			type: 'string',
			default: '',
			description: 'Text stored with the item, for example an order number or a JSON string',
		},
	]),
];

export const description = showFor({ resource: ['queue'], operation: ['addItem'] }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const queueId = ensure(
		this,
		itemIndex,
		checkNotEmpty(
			this.getNodeParameter('queueId', itemIndex, ''),
			'Queue ID',
			'Enter the name or ID of the queue to add the content to.',
		),
	).trim();
	const type = this.getNodeParameter('contentType', itemIndex, 'text') as 'text' | 'image';
	const content =
		type === 'image'
			? await readImage(this, itemIndex)
			: ensure(
					this,
					itemIndex,
					checkNotEmpty(
						this.getNodeParameter('text', itemIndex, ''),
						'Text',
						'Enter the text to moderate, or map it from a previous node (for example {{ $json.comment }}).',
					),
				);

	const options = getOptions(this, itemIndex);
	const body: IDataObject = { type, content };
	const meta = optionalString(options.meta);
	if (meta !== undefined) body.meta = meta;
	const actorId = optionalString(options.actorId);
	if (actorId !== undefined) body.actorId = actorId;

	const response = (await apiRequest.call(this, {
		method: 'POST',
		path: `/queues/${pathSegment(queueId)}`,
		body,
		itemIndex,
	})) as ApiResponse<IDataObject>;
	// queueId is added so that a following Queue > Get Item can use {{ $json.queueId }} and {{ $json.id }}.
	return { ...response.body, queueId };
}
