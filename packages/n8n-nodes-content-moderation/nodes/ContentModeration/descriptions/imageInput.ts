import type { INodeProperties } from 'n8n-workflow';

/** The image input fields shared by Image > Moderate and Queue > Add Item (internal names are fixed). */
export const imageInputProperties: INodeProperties[] = [
	{
		displayName: 'Input Type',
		name: 'inputType',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Image URL',
				value: 'url',
				description: 'A public http(s) address of the image; the service downloads it',
			},
			{
				name: 'Base64',
				value: 'base64',
				description: 'The image as base64 text, for example from a previous node',
			},
			{
				name: 'Binary File',
				value: 'binary',
				description: 'A file from a previous node (Read/Write Files from Disk, HTTP Request, Form …)',
			},
		],
		default: 'url',
		description: 'How the image is given to the node',
	},
	{
		displayName: 'Image URL',
		name: 'imageUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://example.com/photo.jpg',
		description: 'Address of the image, starting with http:// or https://',
		displayOptions: { show: { inputType: ['url'] } },
	},
	{
		displayName: 'Image (Base64)',
		name: 'imageBase64',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: 'iVBORw0KGgoAAAANSUhEUgAA…',
		description: 'The image as base64 text. A "data:image/png;base64," prefix is accepted and removed before sending.',
		displayOptions: { show: { inputType: ['base64'] } },
	},
	{
		displayName: 'Binary Property',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'data',
		hint: "The name of the binary field holding the image, as shown on the input item's Binary tab",
		description: 'Name of the binary property of the input item that holds the image file',
		displayOptions: { show: { inputType: ['binary'] } },
	},
];
