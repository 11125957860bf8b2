import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { imageInputProperties } from '../../descriptions/imageInput';
import { callbackUrlOption } from '../../descriptions/callbackUrl';
import { optionsCollection } from '../../descriptions/options';
import type { NodeRun } from '../operation';
import { moderateImage } from '../../transport/endpoints';
import { isObject } from '../../helpers/json';
import { isCompletion } from '../../inbound/completion';
import { parseMetaJson } from '../../validation/checks';
import { ensure, getOptions, imageInput, withImage } from '../../validation/parameters';
import { verdictProperties } from '../../verdict/description';
import { noIdError, waitCallbackModeOption, waitCallbackTimeoutProperty } from '../waitForCallback/pause';
import { submissionOptions, submissionSteps } from '../submission';
import { pollProperties, pollResult } from './pollResult';

export const description: INodeProperties[] = [
	...imageInputProperties,
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Immediate',
				value: 'immediate',
				description: 'Wait for the verdict in the same request and output the full result',
			},
			{
				name: 'Deferred',
				value: 'deferred',
				description:
					'Queue the image and output only its ID at once. Get the result later with Image > Get, or let a Content Moderation Trigger receive it (set Callback URL).',
			},
			{
				name: 'Deferred and Wait',
				value: 'deferredWait',
				description:
					'Queue the image, then check every Poll Interval until the result is ready (or Wait Timeout passes) and output the full result',
			},
			waitCallbackModeOption('Queue the image'),
		],
		default: 'immediate',
		description: 'Whether to wait for the result or only queue the image',
	},
	...pollProperties,
	waitCallbackTimeoutProperty,
	...optionsCollection(
		[
			callbackUrlOption(['deferred', 'deferredWait'], 'Only used in the Deferred modes.'),
			{
				displayName: 'Metadata (JSON)',
				name: 'meta',
				type: 'json',
				default: '{}',
				description: 'Any JSON stored with the request and returned with the result, for example {"orderId": "A-17"}',
			},
		],
		{ sendsImages: true },
	),
	...verdictProperties,
];

export const toolDescription =
	'Moderate an image and get its safety verdict: isSafe (true or false), riskScores (overall, spam and toxicity, each 1-100), the flagged nsfwCategories with their severity (1-100), suggestedActions (reject, review) and a short description of the image';

export const option: INodePropertyOptions = {
	name: 'Moderate',
	value: 'moderate',
	action: 'Moderate an image',
	description:
		'Check an image (URL, base64 or file) and get its verdict: isSafe, risk scores, flagged categories, suggested actions',
};

export const { verdict, finishRun } = submissionSteps('the request id', '"Immediate" or "Deferred and Wait"');

export async function execute(this: IExecuteFunctions, itemIndex: number, run: NodeRun): Promise<IDataObject> {
	const mode = this.getNodeParameter('mode', itemIndex, 'immediate');
	const options = getOptions(this, itemIndex);
	const parsed = ensure(this, itemIndex, parseMetaJson(options.meta, 'Metadata (JSON)'));
	// Left at its default {}, as Text > Moderate: nothing stored, so the result's meta stays the service's own.
	const meta = isObject(parsed) && Object.keys(parsed).length === 0 ? undefined : parsed;
	const { options: requestOptions, secrets } = await submissionOptions.call(this, itemIndex, run, options, meta);

	// The image is read only once its request may go out (the process's byte budget has room for it).
	const body = withImage(await imageInput(this, itemIndex, run.maxImageBytes), (image) =>
		Object.keys(requestOptions).length > 0 ? { image, options: requestOptions } : { image },
	);
	const response = await moderateImage(run.client, body, itemIndex, secrets);
	// Wait for Callback's answers ({id}) are handled together once every item is submitted (finishRun); a complete
	// answer is the result in any mode (as Wait for Callback takes it): polling for it would only lose it.
	if (mode !== 'deferredWait' || isCompletion(response.statusCode, response.body)) return response.body;

	const id = typeof response.body.id === 'string' ? response.body.id : '';
	if (id === '') throw noIdError(this.getNode(), itemIndex);
	return await pollResult.call(this, itemIndex, run.client, id);
}
