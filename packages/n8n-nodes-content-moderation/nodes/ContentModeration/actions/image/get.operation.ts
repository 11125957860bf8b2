import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestSettingsCollection } from '../../descriptions/options';
import { getImage } from '../../transport/endpoints';
import type { NodeRun } from '../operation';
import { getId } from '../../validation/parameters';

const properties: INodeProperties[] = [
	{
		displayName: 'Image ID',
		name: 'imageId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 3f1c2a9e-…',
		description:
			'ID of the image moderation, as returned by Image > Moderate in a Deferred mode or sent to the Content Moderation Trigger',
	},
];

export const toolDescription =
	'Get an image moderation by its ID (as returned by a deferred moderation): once processed, the same safety verdict Moderate returns (isSafe, riskScores, nsfwCategories, suggestedActions)';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get an image moderation',
	description:
		'Read an image moderation by its ID (e.g. from a deferred Moderate): the same result as Moderate returns, once processed',
};

export const description = updateDisplayOptions({ show: { resource: ['image'], operation: ['get'] } }, [
	...properties,
	...requestSettingsCollection(),
]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ client }: NodeRun,
): Promise<IDataObject> {
	const id = getId(this, itemIndex, 'imageId', 'Image ID');
	const response = await getImage(client, id, itemIndex);
	// The API reference's image result has no id: the one asked for is added, so the item can be matched.
	return response.body.id === undefined ? { id, ...response.body } : response.body;
}
