import type { IDataObject } from 'n8n-workflow';

import { isObject, MAX_DEPTH, nestedDeeperThan } from '../helpers/json';
import { segmentProblem } from '../transport/baseUrl';

/** The service's event names (vendor SDK `WebhookEvent`); other names may come. */
export const RESULT_EVENT = 'moderation.completed';
export const REVIEW_EVENT = 'queue.review.completed';

/** Longest event name read: the service's are about 22 characters; an event name is echoed in answers. */
export const MAX_EVENT_LENGTH = 100;
/** Longest id read (the service's are UUIDs, 36 characters); an id is echoed in answers and read back. */
export const MAX_ID_LENGTH = 200;

/** Fields of an image (spec 2.2) or text result: data with none of them and no id is refused. */
const SHARED_FIELDS = ['summary', 'isSafe', 'confidence', 'riskScores', 'topics', 'nsfwCategories', 'suggestedActions'];
const OTHER_FIELDS = ['description', 'hash', 'meta', 'sentiment', 'sentimentScore', 'request', 'filteredContent'];
const ANY_RESULT_FIELDS = [...SHARED_FIELDS, ...OTHER_FIELDS, 'content'];

/** A callback's data accepted; `id` is null when it carries no usable id (`warning` then says why). */
export type CallbackBody = IDataObject & { id: string | null };

/** `event` is set when the body named an event but was still unusable (its `data` is not an object). */
type Unusable = { ok: false; message: string; event?: string };

export type ParsedEnvelope = { ok: true; event: string; data: IDataObject } | Unusable;

export type ParsedCallback = { ok: true; event: string; body: CallbackBody } | Unusable;

/** The body as a value: raw text or bytes parsed, unless it is already what a JSON parse gave. */
function bodyValue(body: unknown, parsedJson: boolean): { value: unknown } | { message: string } {
	// Bytes are raw text, whatever the content type.
	if (Buffer.isBuffer(body)) return bodyValue(body.toString('utf8'), false);
	if (typeof body !== 'string') return { value: body };
	// A JSON string sent as JSON is a string, not a JSON text to read again.
	if (parsedJson) return { message: 'Body is a JSON string: expected the callback as a JSON object' };
	if (body.trim() === '') return { message: 'Empty body: expected the callback as JSON' };
	try {
		return { value: JSON.parse(body) as unknown };
	} catch {
		return { message: 'Body is not JSON: expected the callback as JSON' };
	}
}

/**
 * A callback body read as `{event, data}` (vendor SDK `WebhookBody`); an object without a string `event` is
 * the data itself: a queue item's is read as `queue.review.completed`, anything else as `moderation.completed`.
 */
export function parseEnvelope(body: unknown, parsedJson = false): ParsedEnvelope {
	const read = bodyValue(body, parsedJson);
	if ('message' in read) return { ok: false, message: read.message };
	const { value } = read;
	if (!isObject(value))
		return { ok: false, message: 'Body must be a JSON object: expected {event, data} or a moderation result' };
	if (nestedDeeperThan(value, MAX_DEPTH))
		return { ok: false, message: `Body is nested deeper than ${MAX_DEPTH} levels` };
	const event = typeof value.event === 'string' ? value.event.trim() : '';
	if (event.length > MAX_EVENT_LENGTH)
		return { ok: false, message: `The event name is longer than ${MAX_EVENT_LENGTH} characters` };
	if (event === '')
		return { ok: true, event: kindOf(value) === 'queueItem' ? REVIEW_EVENT : RESULT_EVENT, data: value };
	if (!isObject(value.data))
		return { ok: false, event, message: `The callback's event "${event}" carries no data object` };
	return { ok: true, event, data: value.data };
}

/** Why an id cannot be read back or echoed, or undefined when it can. */
function idProblem(id: unknown): string | undefined {
	if (id === undefined) return 'The callback carries no id';
	if (typeof id !== 'string')
		return `The callback's id is not usable (${id === null ? 'null' : `a ${Array.isArray(id) ? 'list' : typeof id}`})`;
	if (id.length > MAX_ID_LENGTH) return `The callback's id is not usable (longer than ${MAX_ID_LENGTH} characters)`;
	const problem = segmentProblem(id);
	return problem === undefined ? undefined : `The callback's id is not usable (it ${problem})`;
}

/**
 * THE rules for a completion callback (the trigger and Callback > Receive). Without a usable id: `id: null` and a
 * `warning` (the spec's image result has none). A sender's `error` becomes `callbackError`: `error` is the node's.
 */
export function parseCallback(body: unknown, parsedJson = false): ParsedCallback {
	const parsed = parseEnvelope(body, parsedJson);
	if (!parsed.ok) return parsed;
	const { event } = parsed;
	const { error, ...data } = parsed.data;
	if (error !== undefined) data.callbackError = error;

	const id = typeof data.id === 'number' && Number.isFinite(data.id) ? String(data.id) : data.id;
	const given = typeof id === 'string' ? id.trim() : id;
	const warning = idProblem(given);
	if (warning === undefined) return { ok: true, event, body: { ...data, id: given as string } };
	if (event === RESULT_EVENT && !ANY_RESULT_FIELDS.some((field) => data[field] !== undefined)) {
		return {
			ok: false,
			event,
			message: `Body has neither an id nor any moderation result field (${ANY_RESULT_FIELDS.join(', ')})`,
		};
	}
	if (event === REVIEW_EVENT && data.status === undefined) {
		return { ok: false, event, message: 'The review decision has neither an id nor a status' };
	}
	return { ok: true, event, body: { ...data, id: null, warning } };
}

export type DataKind = 'text' | 'image' | 'queueItem';

/** Fields only a text result has (vendor SDK `TextModerationResponse`); image results may carry a sentiment too. */
const TEXT_FIELDS = ['filteredContent', 'original'];

/** What a callback's data is, so that a result is read back from the right endpoint. */
export function kindOf(data: IDataObject): DataKind | undefined {
	const itemFields =
		typeof data.accepted === 'boolean' ||
		isObject(data.moderation) ||
		(data.type !== undefined && data.content !== undefined);
	if (typeof data.status === 'string' && data.isSafe === undefined && itemFields) return 'queueItem';
	if (TEXT_FIELDS.some((field) => data[field] !== undefined)) return 'text';
	if (typeof data.content === 'string' && data.status === undefined) return 'text';
	if (data.description !== undefined) return 'image';
	return undefined;
}

/** Which result a completion's data shows (a `moderation.completed` is never a queue item); undefined: either. */
export function resultKind(data: IDataObject): 'text' | 'image' | undefined {
	const kind = kindOf(data);
	return kind === 'queueItem' ? undefined : kind;
}
