/** The node-wide request settings, in each operation's Options collection, and their one reader. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { clampInteger } from '../helpers/numbers';
import { SHARED_CAP } from '../limiter/limiter';
import { DEFAULT_MAX_RETRIES, MAX_RETRIES_LIMIT } from '../retry/policy';

export const DEFAULT_FIXED_CONCURRENCY = 5;
/**
 * A run may use all the service has shown this process it takes (a second run of 600 items goes out in one
 * round trip): the shared limit itself starts small and backs off at the first sign of trouble.
 */
export const DEFAULT_MAX_CONCURRENCY = SHARED_CAP;
export const MAX_CONCURRENCY = SHARED_CAP;
/** The spec names no limit; 20 MB covers camera photos and is the request limit of common vision APIs. */
export const DEFAULT_MAX_IMAGE_MB = 20;
export const MAX_IMAGE_MB_LIMIT = 200;

export const REQUEST_SETTINGS: INodeProperties[] = [
	{
		displayName: 'Fixed Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
		default: DEFAULT_FIXED_CONCURRENCY,
		description:
			'Send exactly this many items at a time instead of adapting to the service (Max Concurrency is then ignored). Without this option the node starts with a few requests, grows while the service answers quickly and slows down on 429, 503, timeouts or rising latency.',
	},
	{
		displayName: 'Max Concurrency',
		name: 'maxConcurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
		default: DEFAULT_MAX_CONCURRENCY,
		description:
			'The most requests this node run sends at a time. The adaptive limit is shared by every workflow of this n8n process that uses the same service and credential; lower this when your plan allows fewer parallel requests, or to leave room for other workflows.',
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
	{
		displayName: 'Max Image Size (MB)',
		name: 'maxImageSizeMb',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_IMAGE_MB_LIMIT, numberPrecision: 0 },
		default: DEFAULT_MAX_IMAGE_MB,
		description:
			'A Base64 or Binary File image larger than this fails its item before anything is sent. Image URLs are not checked: the service downloads them.',
	},
];

export interface RequestOptions {
	/** Adaptive: grows and shrinks up to `limit`. Fixed: exactly `limit`. */
	concurrency: { adaptive: boolean; limit: number };
	maxRetries: number;
	maxImageBytes: number;
}

/** Read from item 0: they shape the whole run. */
export function readRequestOptions(ctx: Pick<IExecuteFunctions, 'getNodeParameter'>): RequestOptions {
	const raw = (ctx.getNodeParameter('options', 0, {}) as IDataObject | null) ?? {};
	// n8n stores only the options a user added, so `concurrency` is present exactly when Fixed was chosen.
	const fixed = raw.concurrency !== undefined && raw.concurrency !== null && raw.concurrency !== '';
	return {
		concurrency: fixed
			? { adaptive: false, limit: clampInteger(raw.concurrency, 1, MAX_CONCURRENCY, DEFAULT_FIXED_CONCURRENCY) }
			: { adaptive: true, limit: clampInteger(raw.maxConcurrency, 1, MAX_CONCURRENCY, DEFAULT_MAX_CONCURRENCY) },
		maxRetries: clampInteger(raw.maxRetries, 0, MAX_RETRIES_LIMIT, DEFAULT_MAX_RETRIES),
		maxImageBytes: clampInteger(raw.maxImageSizeMb, 1, MAX_IMAGE_MB_LIMIT, DEFAULT_MAX_IMAGE_MB) * 1024 * 1024,
	};
}
