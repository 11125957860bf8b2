import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { REQUEST_SETTINGS } from './requestOptions';

const actorIdOption: INodeProperties = {
	displayName: 'Actor ID',
	name: 'actorId',
	type: 'string',
	default: '',
	description: 'ID of the user in your system who submitted the content, stored with it by the service',
};

/** Whether an operation sends images: always, never, or only when the node's parameters hold these values. */
type Images = { sendsImages?: boolean | IDisplayOptions['show'] };

/** The Options of an operation: its own options (if any) and the request settings, in n8n's A-Z order. */
export function requestSettingsCollection(
	own: INodeProperties[] = [],
	{ sendsImages = false }: Images = {},
): INodeProperties[] {
	// Only Base64 and Binary File images are checked against Max Image Size.
	const settings = REQUEST_SETTINGS.filter((s) => sendsImages !== false || s.name !== 'maxImageSizeMb').map((s) =>
		s.name === 'maxImageSizeMb' && typeof sendsImages === 'object'
			? { ...s, displayOptions: { show: sendsImages } }
			: s,
	);
	const options = [...own, ...settings].sort((a, b) => a.displayName.localeCompare(b.displayName));
	return [
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options,
		},
	];
}

/** A submitting operation's one Options collection: Actor ID, its own options and the request settings. */
export function optionsCollection(own: INodeProperties[], images: Images = {}): INodeProperties[] {
	return requestSettingsCollection([actorIdOption, ...own], images);
}
