import type { INodeProperties } from 'n8n-workflow';

/** An `options` collection holding Actor ID (shared) plus the operation's own options. */
export function optionsCollection(own: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Actor ID',
				name: 'actorId',
				type: 'string',
				default: '',
				description: 'ID of the user in your system who submitted the content, stored with it by the service',
			},
			...own,
		],
	};
}
