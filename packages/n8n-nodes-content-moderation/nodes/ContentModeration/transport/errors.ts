import type { INode, JsonObject, NodeError } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { redact, redactError, redactValue } from '../redaction/redact';
import { networkErrorCode } from '../retry/policy';
import type { ApiRequest } from './http';

/** Hints per status; the spec shows no error codes, so these only say what a user can check. */
const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request. Check the field it names.',
	401: 'The service rejected the secret key. Check the Secret Key of the Content Moderation API credential.',
	403: 'The service rejected the secret key. Check the Secret Key of the Content Moderation API credential.',
	// An unknown id, or a Base URL under which the API is not served (a path such as /api/v1 added).
	404: "Nothing is there: either the id (or Queue ID) is wrong, it is case-sensitive and a deleted text is gone, or the Base URL of the Content Moderation API credential (BASE_URL) is not the API's root (ContentMod's is https://api.contentmod.io, with no path such as /api/v1). The credential's Test button tells the two apart.",
	429: 'The service is rate limiting requests. Try again later, or lower Request Options > Max Concurrency (or raise Max Retries).',
};

const REDIRECT =
	'The service answered with a redirect, which only a read follows (a request that acts on the service is not sent on to another address: it could carry the content, and a Callback URL with its secret). Set the Base URL of the Content Moderation API credential (BASE_URL) to the address the service answers at.';
// A GET follows redirects: a 3xx it still gets has no address to go to.
const REDIRECT_OF_READ =
	'The service answered with a redirect that leads nowhere (no address to go to). Set the Base URL of the Content Moderation API credential (BASE_URL) to the address the service answers at.';

/** The service's own message, from `{"error":{"message"}}`, `{"message"}` or a plain-text body. */
function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() === '' ? undefined : body.trim().slice(0, 500);
	if (body === null || typeof body !== 'object') return undefined;
	const { error, message } = body as JsonObject;
	const nested = typeof error === 'object' && error !== null ? (error as JsonObject).message : error;
	if (typeof nested === 'string') return nested;
	return typeof message === 'string' ? message : undefined;
}

/**
 * A non-2xx answer of the service, with its status and own message; `secrets` never reach it. The body is
 * redacted whole before anything is read from it or cut, so that a secret crossing a cut leaves nothing.
 */
export function apiError(
	node: INode,
	statusCode: number,
	body: unknown,
	request: ApiRequest,
	baseUrl: string,
	secrets: readonly unknown[],
): NodeApiError {
	const safeBody = redactValue(
		typeof body === 'object' && body !== null ? (body as JsonObject) : { body: String(body ?? '') },
		secrets,
	);
	const own = serviceMessage(typeof body === 'object' && body !== null ? safeBody : safeBody.body);
	const message = redact(`The Content Moderation Service answered ${statusCode}${own ? `: ${own}` : ''}`, secrets);
	const hint = (
		STATUS_HINTS[statusCode] ??
		(statusCode >= 500
			? 'The service failed. Try again later.'
			: statusCode >= 300 && statusCode < 400
				? request.method === 'GET'
					? REDIRECT_OF_READ
					: REDIRECT
				: undefined)
	)?.replace('BASE_URL', baseUrl);
	const where = redact(`${request.method} ${request.path}`, secrets);
	const error = new NodeApiError(node, safeBody, {
		message,
		description: hint ? redact(`${hint} (${where})`, secrets) : where,
		httpCode: String(statusCode),
		itemIndex: request.itemIndex,
	});
	return redactError(error, secrets);
}

/** No HTTP answer at all (refused, reset, timed out): names the Base URL the user can check. */
export function networkError(
	node: INode,
	error: unknown,
	request: ApiRequest,
	baseUrl: string,
	secrets: readonly unknown[],
): NodeApiError {
	const code = networkErrorCode(error);
	// The code goes into the description: in the message (or as `code`), n8n would replace our text,
	// which names the Base URL, with its generic one.
	const message = redact(`Could not reach the Content Moderation Service at ${baseUrl}`, secrets);
	const failure = new NodeApiError(node, { networkErrorCode: code ?? 'unknown' } as JsonObject, {
		message,
		description: `${code ? `${code}: ` : ''}Check the Base URL of the Content Moderation API credential and that the service is reachable.`,
		itemIndex: request.itemIndex,
	});
	return redactError(failure, secrets);
}

/** Appends what retrying did (only methods, statuses and counts: nothing to redact). */
export function addNote<E extends NodeError>(error: E, note: string | undefined): E {
	if (note) error.description = error.description ? `${error.description} ${note}` : note;
	return error;
}
