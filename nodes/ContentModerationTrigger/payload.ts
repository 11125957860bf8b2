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

export type ParsedCallback =
	| { ok: true; body: IDataObject & { id: string } }
	| { ok: false; message: string };

/**
 * The callback body as a JSON object with an id. n8n has already parsed JSON bodies (a malformed one
 * sent as application/json is refused by n8n itself with 422); anything else is read from the raw
 * bytes, so a JSON body sent without a JSON content type is still accepted.
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
		return { ok: false, message: 'Body must be a JSON object with the moderation id' };
	}
	if (typeof body.id !== 'string' || body.id.trim() === '') {
		return { ok: false, message: 'Body has no id: expected the moderation result with its id' };
	}
	return { ok: true, body: body as IDataObject & { id: string } };
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
 */
export async function completeResult(
	body: IDataObject & { id: string },
	client: ApiClient | undefined,
): Promise<CompletedResult> {
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
		// The transport's errors carry the status and the service's message, never the token.
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
