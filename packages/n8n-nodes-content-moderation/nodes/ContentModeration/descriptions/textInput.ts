import type { INodeProperties } from 'n8n-workflow';

/** The Text field of Text > Moderate and Queue > Add Item (read and checked by `getText`). */
export const textInputProperty: INodeProperties = {
	displayName: 'Text',
	name: 'text',
	type: 'string',
	typeOptions: { rows: 4 },
	default: '',
	required: true,
	placeholder: 'e.g. {{ $json.comment }}',
	description: 'The text to moderate, for example a chat message or a comment',
};
