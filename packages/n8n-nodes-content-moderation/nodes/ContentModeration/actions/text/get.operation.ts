import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { requestSettingsCollection } from '../../descriptions/options';
import type { NodeRun } from '../operation';
import { getId } from '../../validation/parameters';
import { verdictProperties } from '../../verdict/description';
import type { VerdictFacts } from '../../verdict/outputs';
import { getText } from '../../transport/endpoints';
import { textIdProperty } from './textId';

export const toolDescription =
	'Get a text moderation by its ID: isSafe, scores, sentiment, language and the text with profanity masked';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a text moderation',
	description:
		'Read a text moderation by its ID: isSafe, scores, sentiment, language and the text with profanity masked',
};

export const description: INodeProperties[] = [textIdProperty, ...verdictProperties, ...requestSettingsCollection()];

export const verdict: VerdictFacts = { analysisOf: (result) => result };

export async function execute(this: IExecuteFunctions, itemIndex: number, { client }: NodeRun): Promise<IDataObject> {
	return (await getText(client, getId(this, itemIndex, 'textId', 'Text ID'), itemIndex)).body;
}
