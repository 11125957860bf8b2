import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { optionsCollection } from '../../descriptions/options';
import { textInputProperty } from '../../descriptions/textInput';
import { callbackUrlOption } from '../../descriptions/callbackUrl';
import { checkMetadataObject } from '../../validation/metadata';
import { moderateText } from '../../transport/endpoints';
import { InputProblem } from '../../validation/checks';
import { ensure, getOptions, getText } from '../../validation/parameters';
import { verdictProperties } from '../../verdict/description';
import type { NodeRun } from '../operation';
import { waitCallbackModeOption, waitCallbackTimeoutProperty } from '../waitForCallback/pause';
import { submissionOptions, submissionSteps } from '../submission';

export const description: INodeProperties[] = [
	textInputProperty,
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Immediate',
				value: 'immediate',
				description: 'Get the verdict in the same request and output the full result',
			},
			{
				name: 'Deferred',
				value: 'deferred',
				description:
					'Submit the text and output only its ID at once. Read the result later with Text > Get, or let a Content Moderation Trigger receive it (set Callback URL).',
			},
			waitCallbackModeOption('Submit the text'),
		],
		default: 'immediate',
		description: 'Whether to get the verdict at once or only submit the text',
	},
	waitCallbackTimeoutProperty,
	...optionsCollection([
		{
			displayName: 'Banned Words',
			name: 'bannedWords',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			placeholder: 'e.g. spoiler, competitor',
			description:
				'Words of your own to flag, separated by commas or one per line (or a JSON list such as ["spoiler", "competitor"]). The service masks them in filteredContent and flags the text.',
		},
		callbackUrlOption(['deferred']),
		{
			displayName: 'Metadata (JSON)',
			name: 'meta',
			type: 'json',
			default: '{}',
			description:
				'A JSON object stored with the moderation and returned with the result, for example {"commentId": "c-17"}',
		},
	]),
	...verdictProperties,
];

export const toolDescription =
	'Moderate a text (a chat message, comment or review) and get the verdict. Takes the text. Returns isSafe (false: do not use the text), suggestedActions (reject, review), the flagged nsfwCategories with their severity, riskScores, sentiment, a summary and filteredContent: the text with profanity masked by *, to use instead of the original';

export const option: INodePropertyOptions = {
	name: 'Moderate',
	value: 'moderate',
	action: 'Moderate a text',
	description:
		'Moderate a text (e.g. a chat message or comment) and get the verdict at once, or deferred. Takes the text. Returns isSafe (false: do not use it), suggestedActions (reject, review), nsfwCategories (flagged categories with severity), riskScores, sentiment, summary and filteredContent: the text with profanity masked by *, to use instead of the original.',
};

export const { verdict, finishRun } = submissionSteps('the text moderation ID', '"Immediate" or "Wait for Callback"');

/** Banned Words: commas or line breaks separate words; a text that is a JSON list, or a list from an expression. */
export function parseBannedWords(value: unknown): string[] | undefined | InputProblem {
	if (value === undefined || value === null || value === '') return undefined;
	const parts: unknown = typeof value === 'string' ? (jsonList(value) ?? value.split(/[,\r\n]+/)) : value;
	if (!Array.isArray(parts)) {
		return new InputProblem(
			'The Banned Words must be a text of words separated by commas or line breaks, or a list of words',
			'Enter words separated by commas or one per line, for example "spoiler, competitor", or an expression returning an array of strings.',
		);
	}
	const isWord = (part: unknown) =>
		typeof part === 'string' || (typeof part === 'number' && Number.isSafeInteger(part));
	if (!parts.every(isWord)) {
		return new InputProblem(
			'The Banned Words list holds something that is not a word',
			'Give only words (texts), for example ["spoiler", "competitor"].',
		);
	}
	const words = [...new Set(parts.map((part) => String(part).trim()))].filter((word) => word !== '');
	return words.length > 0 ? words : undefined;
}

/** A text that parses as a JSON list; undefined otherwise (a word may start with "[" too). */
function jsonList(text: string): unknown[] | undefined {
	try {
		const list: unknown = text.trimStart().startsWith('[') ? JSON.parse(text) : undefined;
		return Array.isArray(list) ? list : undefined;
	} catch {
		return undefined;
	}
}

export async function execute(this: IExecuteFunctions, itemIndex: number, run: NodeRun): Promise<IDataObject> {
	const text = getText(this, itemIndex);
	const options = getOptions(this, itemIndex);
	const meta = ensure(this, itemIndex, checkMetadataObject(options.meta, 'Metadata (JSON)'));
	const bannedWords = ensure(this, itemIndex, parseBannedWords(options.bannedWords));
	const { options: requestOptions, secrets } = await submissionOptions.call(this, itemIndex, run, options, meta);
	if (bannedWords !== undefined) requestOptions.bannedWords = bannedWords;

	const body: IDataObject = { text };
	if (Object.keys(requestOptions).length > 0) body.options = requestOptions;
	return (await moderateText(run.client, body, itemIndex, secrets)).body;
}
