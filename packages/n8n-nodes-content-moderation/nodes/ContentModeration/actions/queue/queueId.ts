import type { INodeProperties } from 'n8n-workflow';

/** The Queue ID field of Queue > Add Item, Queue > Get Item and (with a default) Text > Moderate. */
export const queueIdProperty: INodeProperties = {
	displayName: 'Queue ID',
	name: 'queueId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. comments',
	description: 'Name or ID of the moderation queue',
};

/** The Metadata option of a queue item (Queue > Add Item, Text > Moderate): a string, as spec 4.3 types it. */
export const queueMetaOption: INodeProperties = {
	displayName: 'Metadata',
	name: 'meta',
	type: 'string',
	default: '',
	description: 'Text stored with the item, for example an order number or a JSON string',
};
