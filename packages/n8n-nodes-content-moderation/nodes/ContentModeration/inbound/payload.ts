import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { CallbackBody, DataKind, ParsedCallback } from './envelope';
import { kindOf, parseCallback } from './envelope';
import { readCallbackBody } from './requestBody';
import type { ApiClient } from '../transport/client';
import { getImage, getText } from '../transport/endpoints';
import { hasAnalysis } from '../verdict/rules';

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

export type { CallbackBody, ParsedCallback };

/** The callback body (requestBody.ts) read by the shared rules (envelope.ts `parseCallback`). */
export async function parseCallbackBody(this: IWebhookFunctions): Promise<ParsedCallback> {
	const { body, parsedJson } = await readCallbackBody.call(this);
	return parseCallback(body, parsedJson);
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
 * warning saying so. A review decision (a queue item) is passed on as it came. `readBack` (a call accepted
 * without a Callback Secret): a result is always read, and only its id and warning are taken from the call.
 */
export async function completeResult(
	body: CallbackBody,
	client: ApiClient | undefined,
	kind: DataKind | undefined = kindOf(body),
	repeatNote = '',
	readBack = false,
): Promise<CompletedResult> {
	const { label, read } = endpointFor(kind);
	if (readBack && kind !== 'queueItem') body = { id: body.id, ...(body.warning === undefined ? {} : { warning: body.warning }) };
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
	if (kind === 'queueItem' || (!readBack && isComplete(body, kind)) || client === undefined) return { result: body };

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
