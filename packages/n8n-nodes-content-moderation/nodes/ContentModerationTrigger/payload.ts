import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isObject } from '../ContentModeration/helpers/json';
import { pathSegment } from '../ContentModeration/transport/baseUrl';
import type { ApiClient } from '../ContentModeration/transport/client';
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

/**
 * Fields that make a body a moderation result worth a workflow: the image result's (spec 2.2, `meta`
 * included) and those the client-library description adds. A body with none of them and no id is refused.
 */
const ANY_RESULT_FIELDS = [...RESULT_FIELDS, 'meta', 'sentiment', 'sentimentScore', 'request'];

/** A callback body accepted; `id` is null when the body carries no usable id (a warning then says why). */
export type CallbackBody = IDataObject & { id: string | null };

export type ParsedCallback = { ok: true; body: CallbackBody } | { ok: false; message: string };

/**
 * The callback body as a JSON object. n8n has already parsed JSON bodies (a malformed one sent as
 * application/json is refused by n8n itself with 422); anything else is read from the raw bytes, so a
 * JSON body sent without a JSON content type is still accepted.
 *
 * The spec does not show the callback payload, and its image result (2.2) has no id: an object without
 * one is accepted with `id: null`, so no completed moderation is lost; only a body with neither an id nor
 * any result field is refused.
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

	let body: unknown;
	// Only application/json is parsed by n8n; for anything else the raw bytes are the truth.
	const parsedByN8n = isObject(parsed) && contentType === 'application/json';
	if (parsedByN8n && (raw === undefined || raw.trim() !== '')) {
		body = parsed;
	} else {
		const text = typeof parsed === 'string' ? parsed : (raw ?? '');
		if (text.trim() === '') {
			return { ok: false, message: 'Empty body: expected the moderation result as JSON' };
		}
		try {
			body = JSON.parse(text);
		} catch {
			return { ok: false, message: 'Body is not JSON: expected the moderation result as JSON' };
		}
	}

	if (!isObject(body)) {
		return { ok: false, message: 'Body must be a JSON object: expected the moderation result' };
	}
	const id = typeof body.id === 'number' ? String(body.id) : typeof body.id === 'string' ? body.id.trim() : '';
	if (id !== '') return { ok: true, body: { ...body, id } };
	if (!ANY_RESULT_FIELDS.some((field) => body[field] !== undefined)) {
		return {
			ok: false,
			message: `Body has neither an id nor any moderation result field (${ANY_RESULT_FIELDS.join(', ')})`,
		};
	}
	const warning =
		body.id === undefined
			? 'The callback carries no id'
			: `The callback's id is not usable (${body.id === null ? 'null' : `a ${Array.isArray(body.id) ? 'list' : typeof body.id}`})`;
	return { ok: true, body: { ...body, id: null, warning } };
}

export interface CompletedResult {
	result: IDataObject;
	/** Set when the full result was needed but could not be read. */
	error?: IDataObject;
}

function isComplete(body: IDataObject): boolean {
	return RESULT_FIELDS.every((field) => body[field] !== undefined);
}

/**
 * Reads GET /image/{id} through `client` (none: no credential selected or Fetch Full Result off) when the
 * callback misses result fields. The read result wins over the callback's fields; extra callback fields are kept.
 * Without an id nothing can be read: the callback is passed on as it came, its warning saying so.
 */
export async function completeResult(body: CallbackBody, client: ApiClient | undefined): Promise<CompletedResult> {
	if (body.id === null) {
		const missing = isComplete(body) ? '' : ', and the result fields it misses could not be read with GET /image/{id}';
		return {
			result: {
				...body,
				warning: `${String(body.warning)}, so it cannot be matched to its submission${missing}. Its fields are as the service sent them.`,
			},
		};
	}
	if (isComplete(body) || client === undefined) return { result: body };

	try {
		const response = await client.request({ method: 'GET', path: `/image/${pathSegment(body.id)}` });
		const result: IDataObject = { ...body, ...(response.body as IDataObject) };
		if (!hasAnalysis(result)) {
			return {
				result,
				error: {
					message: `The service has not finished moderation ${body.id} yet (HTTP ${response.statusCode}); read it later with Image > Get`,
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
