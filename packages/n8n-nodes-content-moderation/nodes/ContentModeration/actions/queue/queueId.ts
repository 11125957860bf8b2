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
