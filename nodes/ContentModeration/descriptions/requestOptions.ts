/** The node-level Request Options (how many items run at once, how often a request is retried) and their reader. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { clampInteger } from '../helpers/numbers';
import { DEFAULT_MAX_RETRIES, MAX_RETRIES_LIMIT } from '../transport/retry';

/** Default number of items processed at once; 1 sends them one after another. */
export const DEFAULT_CONCURRENCY = 5;
/** Upper bound of the option; far above what one service usually allows per client. */
export const MAX_CONCURRENCY = 200;

export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
			default: DEFAULT_CONCURRENCY,
			description:
				'How many items are sent to the service at the same time. 1 sends them one after another. Output order and item pairing stay the same.',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_RETRIES_LIMIT, numberPrecision: 0 },
			default: DEFAULT_MAX_RETRIES,
			description:
				'How often a failed request is tried again (429 and 503 wait for Retry-After, others back off). Submissions are only re-sent when the service cannot have acted on them, so nothing is moderated twice.',
		},
	],
};

export interface RequestOptions {
	concurrency: number;
	maxRetries: number;
}

/** The settings of this node run (read from item 0: they shape the whole run); defaults for what is not set. */
export function readRequestOptions(ctx: Pick<IExecuteFunctions, 'getNodeParameter'>): RequestOptions {
	const raw = (ctx.getNodeParameter(requestOptionsProperty.name, 0, {}) as IDataObject | null) ?? {};
	return {
		concurrency: clampInteger(raw.concurrency, 1, MAX_CONCURRENCY, DEFAULT_CONCURRENCY),
		maxRetries: clampInteger(raw.maxRetries, 0, MAX_RETRIES_LIMIT, DEFAULT_MAX_RETRIES),
	};
}
