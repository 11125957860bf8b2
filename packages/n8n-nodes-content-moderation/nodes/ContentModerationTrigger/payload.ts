import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { DataKind } from '../ContentModeration/callbacks/envelope';
import { kindOf, parseEnvelope, RESULT_EVENT, REVIEW_EVENT } from '../ContentModeration/callbacks/envelope';
import { isObject } from '../ContentModeration/helpers/json';
import type { ApiClient } from '../ContentModeration/transport/client';
import { getImage, getText } from '../ContentModeration/transport/endpoints';
import { hasAnalysis } from '../ContentModeration/verdict/rules';

/** Required fields of an image moderation result (spec 2.2); a callback missing any is completed by a read. */
const RESULT_FIELDS = [
	'summary',
	'isSafe',
	'confidence',
	'description',
	'riskScores',
	'topics',
	'nsfwCategories',
	'suggestedActions',
	'hash',
];

/** Fields of a text result (vendor SDK `TextModerationResponse`) a callback must carry to skip the read. */
const TEXT_RESULT_FIELDS = [
	'summary',
	'isSafe',
	'confidence',
	'riskScores',
	'topics',
	'nsfwCategories',
	'suggestedActions',
	'filteredContent',
];

/**
 * Fields that make a body a moderation result worth a workflow: the image result's (spec 2.2, `meta`
 * included) and those the text result adds. A result with none of them and no id is refused.
 */
const ANY_RESULT_FIELDS = [...RESULT_FIELDS, 'meta', 'sentiment', 'sentimentScore', 'request', 'filteredContent', 'content'];

/** A callback's data accepted; `id` is null when it carries no usable id (a warning then says why). */
export type CallbackBody = IDataObject & { id: string | null };

export type ParsedCallback =
	| { ok: true; event: string; enveloped: boolean; body: CallbackBody }
	/** `event` is set when the body named an event but carried no data object. */
	| { ok: false; message: string; event?: string };

/**
 * The callback body read as `{event, data}` (callbacks/envelope.ts). n8n has already parsed JSON bodies
 * (a malformed one sent as application/json is refused by n8n itself with 422); anything else is read
 * from the raw bytes, so a JSON body sent without a JSON content type is still accepted.
 *
 * The spec's image result (2.2) has no id: data without one is accepted with `id: null`, so no completed
 * moderation is lost; only a result with neither an id nor any result field is refused (and a review
 * decision with neither an id nor a status). Data of an event the trigger does not know is not checked.
 */
export function parseCallbackBody(this: IWebhookFunctions): ParsedCallback {
	const request = this.getRequestObject();
	const parsed: unknown = this.getBodyData();
	// n8n's body reader sets contentType; the header is the fallback.
	const contentType =
		request.contentType ??
		String(request.headers['content-type'] ?? '')
			.split(';')[0]
			.trim()
			.toLowerCase();
	const raw = Buffer.isBuffer(request.rawBody) ? request.rawBody.toString('utf8') : undefined;

	// Only application/json is parsed by n8n; for anything else the raw bytes are the truth.
	const parsedByN8n = isObject(parsed) && contentType === 'application/json';
	const body: unknown =
		parsedByN8n && (raw === undefined || raw.trim() !== '') ? parsed : typeof parsed === 'string' ? parsed : (raw ?? '');
	const envelope = parseEnvelope(body);
	if (!envelope.ok) return envelope;
	const { event, data, enveloped } = envelope.envelope;

	const id = typeof data.id === 'number' ? String(data.id) : typeof data.id === 'string' ? data.id.trim() : '';
	if (id !== '') return { ok: true, event, enveloped, body: { ...data, id } };
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
	const warning =
		data.id === undefined
			? 'The callback carries no id'
			: `The callback's id is not usable (${data.id === null ? 'null' : `a ${Array.isArray(data.id) ? 'list' : typeof data.id}`})`;
	return { ok: true, event, enveloped, body: { ...data, id: null, warning } };
}

export interface CompletedResult {
	result: IDataObject;
	/** Set when the full result was needed but could not be read. */
	error?: IDataObject;
}

function isComplete(body: IDataObject, kind: DataKind | undefined): boolean {
	const fields = kind === 'text' ? TEXT_RESULT_FIELDS : RESULT_FIELDS;
	return fields.every((field) => body[field] !== undefined);
}

/** The endpoint a result is read from: text results from GET /text/{id}, others from GET /image/{id}. */
function endpointFor(kind: DataKind | undefined): { label: string; read: typeof getImage } {
	return kind === 'text' ? { label: 'GET /text/{id}', read: getText } : { label: 'GET /image/{id}', read: getImage };
}

/**
 * Reads the full result through `client` (none: no credential selected or Fetch Full Result off) when the
 * callback misses result fields: GET /text/{id} for a text result, GET /image/{id} otherwise (a body with
 * only an id is what flat image callbacks sent). The read result wins over the callback's fields; extra
 * callback fields are kept. Without an id nothing can be read: the callback is passed on as it came, its
 * warning saying so. A review decision (a queue item) is passed on as it came.
 */
export async function completeResult(
	body: CallbackBody,
	client: ApiClient | undefined,
	kind: DataKind | undefined = kindOf(body),
	repeatNote = '',
): Promise<CompletedResult> {
	const { label, read } = endpointFor(kind);
	if (body.id === null) {
		const missing =
			kind === 'queueItem' || isComplete(body, kind) ? '' : `, and the result fields it misses could not be read with ${label}`;
		return {
			result: {
				...body,
				warning: `${String(body.warning)}, so it cannot be matched to its submission${missing}.${repeatNote} Its fields are as the service sent them.`,
			},
		};
	}
	if (kind === 'queueItem' || isComplete(body, kind) || client === undefined) return { result: body };

	try {
		const response = await read(client, body.id);
		const result: IDataObject = { ...body, ...(response.body as IDataObject) };
		if (!hasAnalysis(result)) {
			return {
				result,
				error: {
					message: `The service has not finished moderation ${body.id} yet (HTTP ${response.statusCode}); read it later with ${kind === 'text' ? 'Text' : 'Image'} > Get`,
					httpCode: String(response.statusCode),
				},
			};
		}
		return { result };
	} catch (error) {
		// The transport's errors carry the status and the service's message, never a secret.
		const failure = error as { message?: string; httpCode?: string | null; description?: string | null };
		return {
			result: body,
			error: {
				message: failure.message ?? 'Could not read the full result',
				httpCode: failure.httpCode ?? null,
				description: failure.description ?? null,
			},
		};
	}
}
