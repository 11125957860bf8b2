/**
 * What the vendor's own documents state about the service, as data: the API reference pages
 * (docs.contentmod.io/api-reference/...) and the TypeScript SDK 0.0.6 (GitHub ContentMod-io/sdk,
 * src/types.ts and src/contentmod-sdk.ts), as summarised in real-service.md. Every row names its source.
 * Change a row only when the vendor's documents change; the contract test runs these against the mock.
 */

/** A field's documented type: a primitive, one of a list of values, a nested object, or a list of objects. */
export type FieldSpec =
	| 'string'
	| 'number'
	| 'boolean'
	| 'uuid'
	| 'string[]'
	/** present, any JSON value (null included) */
	| 'any'
	/** documented as absent from this answer */
	| 'absent'
	| { oneOf: readonly unknown[] }
	| { listOf: Shape }
	| Shape;

/** Field name → spec; a name ending in `?` is optional (checked when present). */
export interface Shape {
	[field: string]: FieldSpec;
}

const RISK_SCORES: Shape = { overall: 'number', spam: 'number', toxicity: 'number' };
const NSFW_CATEGORIES: FieldSpec = { listOf: { category: 'string', severity: 'number' } };
const SUGGESTED_ACTIONS: Shape = { reject: 'boolean', review: 'boolean' };

/** API reference `text/create`, `text/get` ("Response 200", every field required but meta). */
export const TEXT_RESULT: Shape = {
	id: 'uuid',
	isSafe: 'boolean',
	confidence: 'number',
	sentiment: { oneOf: ['positive', 'negative', 'neutral'] },
	sentimentScore: 'number',
	riskScores: RISK_SCORES,
	topics: 'string[]',
	nsfwCategories: NSFW_CATEGORIES,
	summary: { profanity: 'boolean', totalFlags: 'number', contentRating: 'string', language: 'string' },
	suggestedActions: SUGGESTED_ACTIONS,
	filteredContent: 'string',
	content: 'string',
	request: { requestId: 'string', timestamp: 'string' },
	'meta?': 'any',
	hash: 'string',
};

/** SDK `types.ts` `TextModerationResponse`: the same, plus `original`; `meta` typed as an object; `actorId?`. */
export const SDK_TEXT_RESULT: Shape = {
	...TEXT_RESULT,
	original: 'string',
	meta: 'any',
	'actorId?': 'string',
};

/** API reference `image/create`, `image/get`: no `id` in the image result. */
export const IMAGE_RESULT: Shape = {
	summary: { totalFlags: 'number', contentRating: 'string', language: 'string' },
	isSafe: 'boolean',
	confidence: 'number',
	description: 'string',
	riskScores: RISK_SCORES,
	topics: 'string[]',
	nsfwCategories: NSFW_CATEGORIES,
	suggestedActions: SUGGESTED_ACTIONS,
	hash: 'string',
	'meta?': 'any',
	id: 'absent',
};

/** `{ id }` only: the answer to a request with `callbackUrl` or `defer` (API reference text/create; SDK `moderate` return type). */
export const DEFERRED_ANSWER: Shape = { id: 'uuid' };

/** API reference `queues/create` response: `status` one of `processing`, `pending`. */
export const QUEUE_ADD_ANSWER: Shape = { id: 'uuid', status: { oneOf: ['processing', 'pending'] } };

/** API reference `queues/get-item` statuses, and the SDK's `QueueItemStatus`. */
export const QUEUE_STATUSES_API = ['pending', 'accepted', 'rejected', 'error'] as const;
export const QUEUE_STATUSES_SDK = ['processing', 'pending', 'accepted', 'rejected'] as const;

/** API reference `queues/get-item`; SDK `QueueItemResponse` (`moderation?: TextModerationResponse`). */
export const QUEUE_ITEM: Shape = {
	id: 'uuid',
	type: { oneOf: ['text', 'image'] },
	accepted: 'boolean',
	status: { oneOf: [...new Set([...QUEUE_STATUSES_API, ...QUEUE_STATUSES_SDK])] },
	content: 'string',
	moderation: 'any',
};

/** SDK `types.ts` `WebhookEvent` and `WebhookBody`: every callback is `{ event, data }`. */
export const WEBHOOK_EVENTS = { moderationCompleted: 'moderation.completed', queueReviewCompleted: 'queue.review.completed' } as const;
export const WEBHOOK_BODY: Shape = { event: 'string', data: 'any' };

/** The SDK sends the secret key as the bearer token, JSON with Content-Type application/json (`performRequest`). */
export const sdkHeaders = (secretKey: string) => ({ 'Content-Type': 'application/json', Authorization: `Bearer ${secretKey}` });

export interface EndpointFact {
	/** What the row states, in the words of its source */
	fact: string;
	source: string;
	method: 'GET' | 'POST' | 'DELETE';
	/** A path; `{text}`, `{image}`, `{queueItem}`, `{queue}` are filled by the test with ids it obtained */
	path: string;
	/** The request body; `<callbackUrl>` is replaced by a receiver's URL */
	body?: unknown;
	status: number;
	response: Shape;
}

// The bodies of the API reference's curl samples, with their placeholders given real values (an image URL
// for the sample's "This is a very cool api", a receiver's URL for "<string>").
export const ENDPOINTS: EndpointFact[] = [
	{
		fact: 'POST /text moderates a text and answers the full text result with its id',
		source: 'API reference text/create',
		method: 'POST',
		path: '/text',
		body: { text: 'This is a very cool api', options: { meta: {}, actorId: '123', bannedWords: ['cool'] } },
		status: 200,
		response: TEXT_RESULT,
	},
	{
		fact: 'POST /text with defer answers only { id }',
		source: 'API reference text/create; SDK text.moderate',
		method: 'POST',
		path: '/text',
		body: { text: 'This is a very cool api', options: { meta: {}, defer: true, actorId: '123', bannedWords: ['<string>'] } },
		status: 200,
		response: DEFERRED_ANSWER,
	},
	{
		fact: 'POST /text with a callbackUrl answers only { id }',
		source: 'API reference text/create; SDK text.moderate',
		method: 'POST',
		path: '/text',
		body: { text: 'This is a very cool api', options: { meta: {}, callbackUrl: '<callbackUrl>', actorId: '123' } },
		status: 200,
		response: DEFERRED_ANSWER,
	},
	{
		fact: 'GET /text/{id} answers the text result',
		source: 'API reference text/get',
		method: 'GET',
		path: '/text/{text}',
		status: 200,
		response: TEXT_RESULT,
	},
	{
		fact: 'POST /image moderates an image and answers the image result (no id)',
		source: 'API reference image/create',
		method: 'POST',
		path: '/image',
		body: { image: 'https://img.test/cat.jpg', options: { meta: {}, actorId: '123' } },
		status: 200,
		response: IMAGE_RESULT,
	},
	{
		fact: 'POST /image with defer answers only { id } (with 200: every documented operation answers 200)',
		source: 'API reference image/create; SDK image.moderate',
		method: 'POST',
		path: '/image',
		body: { image: 'https://img.test/cat.jpg', options: { meta: {}, defer: true, actorId: '123' } },
		status: 200,
		response: DEFERRED_ANSWER,
	},
	{
		fact: 'GET /image/{id} answers the image result (no id)',
		source: 'API reference image/get',
		method: 'GET',
		path: '/image/{image}',
		status: 200,
		response: IMAGE_RESULT,
	},
	{
		fact: 'POST /queues/{queueId} adds an item and answers { id, status } with 200; meta typed object',
		source: 'API reference queues/create',
		method: 'POST',
		path: '/queues/{queue}',
		body: { type: 'text', content: 'This is a very cool api', meta: {}, actorId: '123' },
		status: 200,
		response: QUEUE_ADD_ANSWER,
	},
	{
		fact: "POST /queues/{queueId} keeps the API reference's example meta, the string \"{}\"",
		source: 'API reference queues/create (example)',
		method: 'POST',
		path: '/queues/{queue}',
		body: { type: 'text', content: 'This is a very cool api', meta: '{}', actorId: '123' },
		status: 200,
		response: QUEUE_ADD_ANSWER,
	},
	{
		fact: 'POST /queues/{queueId} takes an image (url or base64) as content',
		source: 'API reference queues/create',
		method: 'POST',
		path: '/queues/{queue}',
		body: { type: 'image', content: 'https://img.test/cat.jpg' },
		status: 200,
		response: QUEUE_ADD_ANSWER,
	},
	{
		fact: 'GET /queues/{queueId}/items/{itemId} answers the queue item',
		source: 'API reference queues/get-item',
		method: 'GET',
		path: '/queues/{queue}/items/{queueItem}',
		status: 200,
		response: QUEUE_ITEM,
	},
];

/** Request rules the API reference states. */
export const REQUEST_RULES = [
	{ fact: '`text` has a minimum length of 1', source: 'API reference text/create', path: '/text', body: { text: '' }, refused: true },
	{ fact: '`text` is required', source: 'API reference text/create', path: '/text', body: { options: {} }, refused: true },
	{ fact: 'a one-character text is accepted', source: 'API reference text/create', path: '/text', body: { text: 'a' }, refused: false },
	{ fact: '`image` is required', source: 'API reference image/create', path: '/image', body: { options: {} }, refused: true },
	{ fact: '`type` is text or image', source: 'API reference queues/create', path: '/queues/{queue}', body: { type: 'video', content: 'x' }, refused: true },
	{ fact: '`content` is required', source: 'API reference queues/create', path: '/queues/{queue}', body: { type: 'text' }, refused: true },
] as const;

/** Where the two documents name the metadata key differently: both must reach the service. */
export const METADATA_KEYS = [
	{ key: 'meta', source: 'API reference (options.meta; queue body meta)' },
	{ key: 'metadata', source: 'SDK since 0.0.4 (options.metadata; queue body metadata)' },
] as const;
