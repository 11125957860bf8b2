import type { INodeProperties } from 'n8n-workflow';

/** The Queue ID field of Queue > Add Item and Queue > Get Item. */
export const queueIdProperty: INodeProperties = {
	displayName: 'Queue ID',
	name: 'queueId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. comments',
	description: 'Name or ID of the moderation queue',
};

/** The Metadata option of Queue > Add Item: a JSON object written here is sent as an object, any other text as text. */
export const queueMetaOption: INodeProperties = {
	displayName: 'Metadata',
	name: 'meta',
	type: 'string',
	default: '',
	placeholder: 'e.g. {"postId": "p-17"}',
	description:
		'Stored with the item, for example {"postId": "p-17"} or an order number. A JSON object is sent as an object; other text as text.',
};
