import type { INodeProperties } from 'n8n-workflow';

export const queueIdProperty: INodeProperties = {
	displayName: 'Queue ID',
	name: 'queueId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. comments',
	description: 'Name or ID of the moderation queue',
};
