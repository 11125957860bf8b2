import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../helpers/json';

/** The service's event names (vendor SDK `WebhookEvent`); other names may come. */
export const RESULT_EVENT = 'moderation.completed';
export const REVIEW_EVENT = 'queue.review.completed';

export type KnownEvent = typeof RESULT_EVENT | typeof REVIEW_EVENT;

export function isKnownEvent(event: string): event is KnownEvent {
	return event === RESULT_EVENT || event === REVIEW_EVENT;
}

export interface CallbackEnvelope {
	event: string;
	data: IDataObject;
	/** False when the body came flat (a bare result, as older senders send): read as `moderation.completed`. */
	enveloped: boolean;
}

export type ParsedEnvelope =
	| { ok: true; envelope: CallbackEnvelope }
	/** `event` is set when the body named one but was still unusable (its `data` is not an object). */
	| { ok: false; message: string; event?: string };

/**
 * Reads a received callback body (already JSON-parsed, or its raw text/bytes) as `{event, data}`.
 *
 * - `{event: string, data: object}`: as sent (vendor SDK `WebhookBody`).
 * - An object without a string `event`: a flat body, i.e. the result itself, read as `moderation.completed`.
 * - `{event: string}` whose `data` is missing or not an object: not a flat result (results carry no
 *   `event`) and not a usable envelope, so it is refused with the event named; the caller decides what
 *   an unknown event without data gets (the trigger acknowledges unknown events whatever they carry).
 */
export function parseEnvelope(body: unknown): ParsedEnvelope {
	let value = body;
	if (Buffer.isBuffer(value)) value = value.toString('utf8');
	if (typeof value === 'string') {
		if (value.trim() === '') return { ok: false, message: 'Empty body: expected the callback as JSON' };
		try {
			value = JSON.parse(value) as unknown;
		} catch {
			return { ok: false, message: 'Body is not JSON: expected the callback as JSON' };
		}
	}
	if (!isObject(value)) {
		return { ok: false, message: 'Body must be a JSON object: expected {event, data} or a moderation result' };
	}
	const event = typeof value.event === 'string' ? value.event.trim() : '';
	if (event === '') return { ok: true, envelope: { event: RESULT_EVENT, data: value, enveloped: false } };
	if (!isObject(value.data)) {
		return { ok: false, event, message: `The callback's event "${event}" carries no data object` };
	}
	return { ok: true, envelope: { event, data: value.data, enveloped: true } };
}

export type DataKind = 'text' | 'image' | 'queueItem';

/** Fields only a text result has (vendor SDK `TextModerationResponse`); image results may carry a sentiment too. */
const TEXT_FIELDS = ['filteredContent', 'original'];

/**
 * What a callback's data is, so that a result is read back from the right endpoint (GET /text/{id} or
 * GET /image/{id}). A queue item has a `status` and `type`/`content`/`accepted`/`moderation` but no verdict of
 * its own; a text result has its text fields (`content` alone counts when there is no `status`); an
 * image result has a `description`. Anything else (for example only an id) is undefined: not known.
 */
export function kindOf(data: IDataObject): DataKind | undefined {
	const hasVerdict = data.isSafe !== undefined;
	if (
		typeof data.status === 'string' &&
		!hasVerdict &&
		(typeof data.accepted === 'boolean' ||
			isObject(data.moderation) ||
			(data.type !== undefined && data.content !== undefined))
	) {
		return 'queueItem';
	}
	if (TEXT_FIELDS.some((field) => data[field] !== undefined)) return 'text';
	if (typeof data.content === 'string' && data.status === undefined) return 'text';
	if (data.description !== undefined) return 'image';
	return undefined;
}
