import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { imageInputProperties, optionsCollection, showFor } from '../../shared/descriptions';
import { asNodeError } from '../../shared/errors';
import { ensure, checkHttpUrl, getOptions, optionalString, parseMetaJson, readImage } from '../../shared/inputs';
import type { ApiResponse } from '../../shared/transport';
import { apiRequest, pathSegment } from '../../shared/transport';
import { hasAnalysis } from '../../shared/verdict';

export type ModerationMode = 'immediate' | 'deferred' | 'deferredWait';

/**
 * Polling defaults for "Deferred and Wait". The spec gives no processing times, so these are
 * chosen to suit a few-second moderation without hammering the service; change them here.
 */
export const DEFAULT_POLL_INTERVAL_SECONDS = 2;
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 60;
export const MIN_POLL_INTERVAL_SECONDS = 0.1;

const deferredModes = ['deferred', 'deferredWait'];

const properties: INodeProperties[] = [
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
		],
		default: 'immediate',
		description: 'Whether to wait for the result or only queue the image',
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: MIN_POLL_INTERVAL_SECONDS, numberPrecision: 1 },
		default: DEFAULT_POLL_INTERVAL_SECONDS,
		description: 'How long to wait between two checks of the result',
		displayOptions: { show: { mode: ['deferredWait'] } },
	},
	{
		displayName: 'Wait Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_WAIT_TIMEOUT_SECONDS,
		description:
			'How long to wait for the result in total. When it passes, the item fails with the moderation ID so that you can read the result later with Image > Get.',
		displayOptions: { show: { mode: ['deferredWait'] } },
	},
	optionsCollection([
		{
			displayName: 'Callback URL',
			name: 'callbackUrl',
			type: 'string',
			default: '',
			placeholder: 'https://your-n8n.example.com/webhook/…/callback',
			description:
				'Where the service sends the result when it is ready. Get it from a Content Moderation Trigger node: copy its Production URL. Only used in the Deferred modes.',
			displayOptions: { show: { '/mode': deferredModes } },
		},
		{
			displayName: 'Metadata (JSON)',
			name: 'meta',
			type: 'json',
			default: '{}',
			description:
				'Any JSON stored with the request and returned with the result, for example {"orderId": "A-17"}',
		},
	]),
];

export const description = showFor({ resource: ['image'], operation: ['moderate'] }, properties);

/**
 * Whether a GET /image/{id} answer is the finished result. The service answers 202 with
 * {status: "processing"} while it works; anything without a boolean isSafe is not a result yet.
 */
export function isResultReady(statusCode: number, body: unknown): boolean {
	if (statusCode === 202) return false;
	return hasAnalysis(body as IDataObject);
}

/**
 * A 404 while polling counts as "not ready": the id came from the service itself a moment ago, so a
 * 404 means the result is not stored yet rather than a wrong id.
 */
function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

async function waitForResult(
	this: IExecuteFunctions,
	itemIndex: number,
	id: string,
): Promise<IDataObject> {
	const pollSeconds = Math.max(
		MIN_POLL_INTERVAL_SECONDS,
		Number(this.getNodeParameter('pollInterval', itemIndex, DEFAULT_POLL_INTERVAL_SECONDS)) ||
			DEFAULT_POLL_INTERVAL_SECONDS,
	);
	const timeoutSeconds = Math.max(
		0,
		Number(this.getNodeParameter('waitTimeout', itemIndex, DEFAULT_WAIT_TIMEOUT_SECONDS)) || 0,
	);
	const deadline = Date.now() + timeoutSeconds * 1000;
	// Bounded by count as well as by time, in case the clock jumps.
	const maxChecks = Math.ceil(timeoutSeconds / pollSeconds) + 1;

	for (let check = 0; check < maxChecks; check++) {
		try {
			const response = (await apiRequest.call(this, {
				method: 'GET',
				path: `/image/${pathSegment(id)}`,
				itemIndex,
			})) as ApiResponse<IDataObject>;
			if (isResultReady(response.statusCode, response.body)) return response.body;
		} catch (error) {
			if (!isNotFound(error)) throw asNodeError(this, error, itemIndex);
		}
		const remaining = deadline - Date.now();
		if (remaining <= 0) break;
		await sleep(Math.min(pollSeconds * 1000, remaining));
	}

	throw new NodeOperationError(
		this.getNode(),
		`The moderation ${id} was not ready after ${timeoutSeconds} seconds [item ${itemIndex}]`,
		{
			itemIndex,
			description: `The image is still being processed. Read the result later with Image > Get and Image ID "${id}", raise Wait Timeout, or use Mode "Deferred" with a Content Moderation Trigger.`,
		},
	);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const mode = this.getNodeParameter('mode', itemIndex, 'immediate') as ModerationMode;
	const options = getOptions(this, itemIndex);
	const deferred = deferredModes.includes(mode);

	// All checks happen before the request; only the options that are set are sent.
	const image = await readImage(this, itemIndex);
	const requestOptions: IDataObject = {};
	const meta = ensure(this, itemIndex, parseMetaJson(options.meta, 'Metadata (JSON)'));
	if (meta !== undefined) requestOptions.meta = meta as IDataObject;
	const actorId = optionalString(options.actorId);
	if (actorId !== undefined) requestOptions.actorId = actorId;
	// A callback URL makes the service answer with the ID only, so it only applies to the deferred modes.
	const callbackUrl = optionalString(options.callbackUrl);
	if (deferred && callbackUrl !== undefined) {
		requestOptions.callbackUrl = ensure(this, itemIndex, checkHttpUrl(callbackUrl, 'Callback URL'));
	}
	if (deferred) requestOptions.defer = true;

	const body: IDataObject = { image };
	if (Object.keys(requestOptions).length > 0) body.options = requestOptions;

	const response = (await apiRequest.call(this, {
		method: 'POST',
		path: '/image',
		body,
		itemIndex,
	})) as ApiResponse<IDataObject>;
	if (mode !== 'deferredWait') return response.body;

	const id = typeof response.body.id === 'string' ? response.body.id : '';
	if (id === '') {
		throw new NodeOperationError(this.getNode(), 'The service did not return a moderation ID to wait for', {
			itemIndex,
			description: 'Use Mode "Immediate" instead, or check that the service supports deferred moderation.',
		});
	}
	return await waitForResult.call(this, itemIndex, id);
}
