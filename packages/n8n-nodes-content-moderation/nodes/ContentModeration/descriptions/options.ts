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

const VERSION_1 = { show: { '@version': [1] } };
const FROM_VERSION_2 = { show: { '@version': [{ _cnd: { gte: 2 } }] } };

function collection(options: INodeProperties[], displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options, displayOptions };
}

/** From version 2 the one Options collection also holds the node-wide request settings, in n8n's A-Z order. */
function withRequestSettings(own: INodeProperties[], sendsImages: boolean): INodeProperties[] {
	const settings = REQUEST_SETTINGS.filter((s) => sendsImages || !IMAGE_ONLY_SETTINGS.includes(s.name));
	return [...own, ...settings].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/**
 * An operation's Options collection: Actor ID, its own options and, from version 2, the request settings.
 * Version 1 keeps the collection it was saved with (the request settings are then in Request Options).
 */
export function optionsCollection(own: INodeProperties[], { sendsImages = false } = {}): INodeProperties[] {
	return [
		collection([actorIdOption, ...own], VERSION_1),
		collection(withRequestSettings([actorIdOption, ...own], sendsImages), FROM_VERSION_2),
	];
}

/** The Options of an operation with none of its own: from version 2, the request settings. */
export function requestSettingsCollection(): INodeProperties[] {
	return [collection(withRequestSettings([], false), FROM_VERSION_2)];
}
