/** One request as n8n's HTTP helper takes it, and what its answer means for retries and for the limiter. */
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import type { SendOutcome } from '../limiter/outcome';
import { encodeLargeJsonBody } from './jsonBody';
import { networkErrorCode, parseRetryAfter } from '../retry/policy';
import type { TryOutcome } from '../retry/policy';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, starting with "/"; encode parameters with `pathSegment`. */
	path: string;
	body?: RequestBody;
	qs?: IDataObject;
	itemIndex?: number;
	/** Values the request carries that must not reach an error (besides the access token) */
	secrets?: string[];
}

/** A body not read yet: its size once read (known without reading it), and the read. */
export interface UnreadBody<T> {
	bodyBytes: number;
	read(): Promise<T>;
}

/** A body, or one built only once its request may go out (an image: read from n8n's binary store, encoded). */
export type RequestBody = IDataObject | UnreadBody<IDataObject>;

export interface FullResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body?: unknown;
}

// Without one a hung connection would hold its place forever; 5 minutes, as n8n's HTTP Request node.
const REQUEST_TIMEOUT_MS = 300_000;

/** Network failures that suggest an overloaded service (as opposed to nothing listening at all). */
const OVERLOAD_CODES = new Set([
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'ECONNABORTED',
	'ECONNRESET',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);

export function loadSignal(response: FullResponse, latencyMs: number): SendOutcome {
	const status = response.statusCode;
	if (status === 429 || status === 503) {
		return { kind: 'throttled', retryAfterMs: parseRetryAfter(response.headers?.['retry-after']) };
	}
	if (status === 502 || status === 504) return { kind: 'overloaded' };
	if (status >= 500) return { kind: 'neutral' };
	return { kind: 'success', latencyMs };
}

const JSON_CONTENT_TYPE = /^\s*application\/([\w.+-]*\+)?json\s*(;|$)/i;

/** A non-2xx response as the retry policy sees it. */
export function statusOutcome(response: FullResponse): TryOutcome | undefined {
	if (response.statusCode >= 200 && response.statusCode <= 299) return undefined;
	// n8n's helper parses any JSON-looking text into an object, a proxy's text/plain page too: the service's
	// refusal is a JSON body declared as JSON.
	const declaredJson = JSON_CONTENT_TYPE.test(String(response.headers?.['content-type'] ?? ''));
	const jsonBody =
		declaredJson && typeof response.body === 'object' && response.body !== null && !Buffer.isBuffer(response.body);
	return { kind: 'status', statusCode: response.statusCode, retryAfter: response.headers?.['retry-after'], jsonBody };
}

export function httpOptions(
	baseUrl: string,
	request: ApiRequest & { body?: IDataObject },
	signal?: AbortSignal,
): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		json: true,
		returnFullResponse: true,
		// The client maps status errors itself: the service's message, not the request's headers.
		ignoreHttpStatusErrors: true,
		timeout: REQUEST_TIMEOUT_MS,
		// n8n sends the Secret Key along a redirect to another origin unless told not to.
		sendCredentialsOnCrossOriginRedirect: false,
	};
	// A redirect would carry the body (the content, a Callback URL with its secret) to another address: an error.
	if (request.method !== 'GET') options.disableFollowRedirect = true;
	// A cancelled run gives its places in the limiter back at once, so its requests must end too.
	if (signal) options.abortSignal = signal;
	if (request.body !== undefined) {
		// A multi-MB image is encoded once into bytes instead of field + JSON text + bytes (memory).
		const large = encodeLargeJsonBody(request.body);
		options.body = large ?? request.body;
		if (large) options.headers = { 'content-type': 'application/json' };
	}
	if (request.qs !== undefined) options.qs = request.qs;
	return options;
}

/** A send without an answer: overload for timeouts and resets, nothing otherwise. */
export function failureSignal(error: unknown): SendOutcome {
	const code = networkErrorCode(error);
	return { kind: code !== undefined && OVERLOAD_CODES.has(code) ? 'overloaded' : 'neutral' };
}
