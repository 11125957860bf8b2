import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { requestSettingsCollection } from '../../descriptions/options';
import { getImage } from '../../transport/endpoints';
import type { NodeRun } from '../operation';
import { getId } from '../../validation/parameters';
import { withId } from '../../inbound/readBack';

export const description: INodeProperties[] = [
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
	...requestSettingsCollection(),
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

export async function execute(this: IExecuteFunctions, itemIndex: number, { client }: NodeRun): Promise<IDataObject> {
	const id = getId(this, itemIndex, 'imageId', 'Image ID');
	return withId(id, (await getImage(client, id, itemIndex)).body);
}
