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

/** Which node versions an Options collection is for: every version, versions 1-2 only, or from 3 on. */
export type OptionsVersions = 'all' | 'upTo2' | 'from3';

const VERSION_2 = { show: { '@version': [2] } };
const FROM_VERSION_3 = { show: { '@version': [{ _cnd: { gte: 3 } }] } };

/**
 * An operation's Options collection: Actor ID, its own options and, from version 2, the request settings.
 * Version 1 keeps the collection it was saved with (the request settings are then in Request Options).
 */
export function optionsCollection(
	own: INodeProperties[],
	{ sendsImages = false, versions = 'all' }: { sendsImages?: boolean; versions?: OptionsVersions } = {},
): INodeProperties[] {
	const all = [actorIdOption, ...own];
	if (versions === 'from3') return [collection(withRequestSettings(all, sendsImages), FROM_VERSION_3)];
	return [
		collection(all, VERSION_1),
		collection(withRequestSettings(all, sendsImages), versions === 'upTo2' ? VERSION_2 : FROM_VERSION_2),
	];
}

/** The Options of an operation with none of its own: from version 2, the request settings. */
export function requestSettingsCollection(): INodeProperties[] {
	return [collection(withRequestSettings([], false), FROM_VERSION_2)];
}
