import type { INodeProperties } from 'n8n-workflow';

import { REQUEST_SETTINGS } from './requestOptions';

const actorIdOption: INodeProperties = {
	displayName: 'Actor ID',
	name: 'actorId',
	type: 'string',
	default: '',
	description: 'ID of the user in your system who submitted the content, stored with it by the service',
};

/** Only Base64 and Binary File images are checked against it. */
const IMAGE_ONLY_SETTINGS = ['maxImageSizeMb'];

function collection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/** The options with the node-wide request settings added, in n8n's A-Z order. */
function withRequestSettings(own: INodeProperties[], sendsImages: boolean): INodeProperties[] {
	const settings = REQUEST_SETTINGS.filter((s) => sendsImages || !IMAGE_ONLY_SETTINGS.includes(s.name));
	return [...own, ...settings].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** A submitting operation's one Options collection: Actor ID, its own options and the request settings. */
export function optionsCollection(
	own: INodeProperties[],
	{ sendsImages = false }: { sendsImages?: boolean } = {},
): INodeProperties[] {
	return [collection(withRequestSettings([actorIdOption, ...own], sendsImages))];
}

/** The Options of an operation that sends no content: its own options (if any) and the request settings. */
export function requestSettingsCollection(own: INodeProperties[] = []): INodeProperties[] {
	return [collection(withRequestSettings(own, false))];
}
