import type { INodeProperties } from 'n8n-workflow';

export const textIdProperty: INodeProperties = {
	displayName: 'Text ID',
	name: 'textId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 9b2e6c1d-…',
	description:
		'ID of the text moderation, for example the ID inside "moderation" of a text queue item (Queue > Get Item)',
};
