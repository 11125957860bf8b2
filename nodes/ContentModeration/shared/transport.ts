import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { readThroughputOptions } from './concurrency';
import { encodeLargeJsonBody } from './jsonBody';
import { DEFAULT_RETRY_SETTINGS, networkErrorCode, retryNote, withRetries } from './retry';
import type { RetrySettings, TryOutcome } from './retry';

export const CREDENTIAL_TYPE = 'contentModerationApi';

export type ApiContext = IExecuteFunctions | IWebhookFunctions | IHookFunctions | ILoadOptionsFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, starting with "/"; encode parameters with `pathSegment`. */
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	itemIndex?: number;
}

export interface ApiResponse<T> {
	statusCode: number;
	headers: Record<string, unknown>;
	body: T;
}

interface FullResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body?: unknown;
}

export function pathSegment(value: string): string {
	return encodeURIComponent(value);
}

/**
 * Returns the base URL without trailing slashes, or an error text that names the credential field.
 * Kept free of n8n types so the credential test can share it.
 */
export function parseBaseUrl(raw: unknown): { url: string } | { error: string } {
	const value = typeof raw === 'string' ? raw.trim() : '';
	if (value === '') {
		return { error: 'The Base URL of the Content Moderation API credential is empty' };
	}
	if (!/^https?:\/\//i.test(value)) {
		return {
			error: `The Base URL "${value}" of the Content Moderation API credential must start with http:// or https://`,
		};
	}
	try {
		new URL(value);
	} catch {
		return { error: `The Base URL "${value}" of the Content Moderation API credential is not a valid URL` };
	}
	return { url: value.replace(/\/+$/, '') };
}

/** Hints per status; the spec shows no error codes, so these only say what a user can check. */
const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request. Check the field it names.',
	401: 'The service rejected the access token. Check the Access Token of the Content Moderation API credential.',
	403: 'The service rejected the access token. Check the Access Token of the Content Moderation API credential.',
	404: 'Nothing was found under this id. Check the id (it is case-sensitive) and that it was not deleted.',
	429: 'The service is rate limiting requests. Lower the concurrency or try again later.',
};

/** The service's own message, from `{"error":{"message"}}`, `{"message"}` or a plain-text body. */
export function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() === '' ? undefined : body.trim().slice(0, 500);
	if (body === null || typeof body !== 'object') return undefined;
	const data = body as IDataObject;
	const nested = data.error;
	if (nested && typeof nested === 'object' && typeof (nested as IDataObject).message === 'string') {
		return (nested as IDataObject).message as string;
	}
	if (typeof nested === 'string') return nested;
	if (typeof data.message === 'string') return data.message;
	return undefined;
}

/** Replaces every occurrence of the secret; used on anything that may reach an error or output. */
export function redact(text: string, secret: unknown): string {
	if (typeof secret !== 'string' || secret.length === 0) return text;
	return text.split(secret).join('***');
}

export function apiError(
	ctx: ApiContext,
	statusCode: number,
	body: unknown,
	request: ApiRequest,
	secret: unknown,
): NodeApiError {
	const own = serviceMessage(body);
	const message = redact(
		`The Content Moderation Service answered ${statusCode}${own ? `: ${own}` : ''}`,
		secret,
	);
	const hint =
		STATUS_HINTS[statusCode] ??
		(statusCode >= 500 ? 'The service failed. Try again later.' : undefined);
	const safeBody = typeof body === 'object' && body !== null ? (body as JsonObject) : { body: String(body ?? '') };
	return new NodeApiError(ctx.getNode(), JSON.parse(redact(JSON.stringify(safeBody), secret)) as JsonObject, {
		message,
		description: hint ? `${hint} (${request.method} ${request.path})` : `${request.method} ${request.path}`,
		httpCode: String(statusCode),
		itemIndex: request.itemIndex,
	});
}

function networkError(ctx: ApiContext, error: unknown, request: ApiRequest, baseUrl: string, secret: unknown) {
	const code = networkErrorCode(error);
	// The code goes into the description: in the message (or as `code`), n8n would replace our text,
	// which names the Base URL, with its generic one.
	const message = redact(`Could not reach the Content Moderation Service at ${baseUrl}`, secret);
	return new NodeApiError(ctx.getNode(), { networkErrorCode: code ?? 'unknown' } as JsonObject, {
		message,
		description: `${code ? `${code}: ` : ''}Check the Base URL of the Content Moderation API credential and that the service is reachable.`,
		itemIndex: request.itemIndex,
	});
}

/** A non-2xx response as the retry policy sees it; undefined for a success. */
function statusOutcome(response: FullResponse): TryOutcome | undefined {
	if (response.statusCode >= 200 && response.statusCode <= 299) return undefined;
	return { kind: 'status', statusCode: response.statusCode, retryAfter: response.headers?.['retry-after'] };
}

function addNote(error: NodeApiError, note: string | undefined): NodeApiError {
	if (note) error.description = error.description ? `${error.description} ${note}` : note;
	return error;
}

// The spec gives no timeouts; without one a hung connection would hold a concurrency slot forever.
// 5 minutes, as n8n's HTTP Request node. A timed-out GET is retried, a timed-out POST is not (it may
// have been acted on).
const REQUEST_TIMEOUT_MS = 300_000;

// Read once per node run: an execute context lives for one run, so the cache cannot go stale.
const retrySettingsCache = new WeakMap<object, RetrySettings>();

/**
 * Outside an execution (the trigger's webhook, hooks, option loaders) someone waits for the answer, so a
 * read is retried once, briefly: the trigger must acknowledge a callback fast.
 */
export const QUICK_RETRY_SETTINGS: RetrySettings = { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 };

function retrySettingsOf(ctx: ApiContext): RetrySettings {
	// Only the action node has the option.
	if (!('getInputData' in ctx)) return QUICK_RETRY_SETTINGS;
	let settings = retrySettingsCache.get(ctx);
	if (settings === undefined) {
		settings = { ...DEFAULT_RETRY_SETTINGS, maxRetries: readThroughputOptions(ctx).maxRetries };
		retrySettingsCache.set(ctx, settings);
	}
	return settings;
}

// n8n loads and decrypts the credential on every getCredentials call (a database read on a server), and
// httpRequestWithAuthentication would read it again: one read per node run is enough (throughput).
const credentialCache = new WeakMap<object, Promise<ICredentialsDecrypted>>();

/** The credential of this node run, in the form httpRequestWithAuthentication accepts. */
function credentialsOf(ctx: ApiContext): Promise<ICredentialsDecrypted> {
	let pending = credentialCache.get(ctx);
	if (pending === undefined) {
		const ref = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
		pending = ctx.getCredentials(CREDENTIAL_TYPE).then((data) => ({
			id: ref?.id ?? '',
			name: ref?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		}));
		credentialCache.set(ctx, pending);
		// A failed read is not kept: each item then reports it (with its own item index).
		pending.catch(() => credentialCache.delete(ctx));
	}
	return pending;
}

/** The one function all HTTP to the service goes through. */
export async function apiRequest<T = IDataObject>(
	this: ApiContext,
	request: ApiRequest,
): Promise<ApiResponse<T>> {
	const credentialsDecrypted = await credentialsOf(this);
	const credentials = credentialsDecrypted.data ?? {};
	const base = parseBaseUrl(credentials.baseUrl);
	if ('error' in base) {
		throw new NodeOperationError(this.getNode(), base.error, {
			itemIndex: request.itemIndex,
			description: 'Open the credential and enter the service address, for example https://moderation.example.com',
		});
	}

	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${base.url}${request.path}`,
		json: true,
		returnFullResponse: true,
		// Status errors are mapped below, with the service's message and without the request's headers.
		ignoreHttpStatusErrors: true,
		timeout: REQUEST_TIMEOUT_MS,
	};
	if (request.body !== undefined) {
		// A multi-MB image is encoded once into bytes instead of field + JSON text + bytes (memory).
		const large = encodeLargeJsonBody(request.body);
		options.body = large ?? request.body;
		if (large) options.headers = { 'content-type': 'application/json' };
	}
	if (request.qs !== undefined) options.qs = request.qs;

	// Retries (429/503 Retry-After, backoff, POST-safe rules) happen here, so callers never retry.
	const settings = retrySettingsOf(this);
	const signal = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	const run = await withRetries(request.method, settings, {
		send: async () =>
			(await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options, {
				credentialsDecrypted,
			})) as FullResponse,
		statusOf: statusOutcome,
		// A cancelled execution sends nothing more.
		sleep: async (ms) => {
			if (signal?.aborted) throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
			if (ms > 0) await sleep(ms);
			if (signal?.aborted) throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
		},
	});
	if (run.kind === 'network') {
		const error = networkError(this, run.error, request, base.url, credentials.accessToken);
		const outcome: TryOutcome = { kind: 'network', code: networkErrorCode(run.error) };
		throw addNote(error, retryNote(request.method, outcome, run.retries, run.stoppedBecause));
	}
	const response = run.result;
	if (run.kind === 'status') {
		const error = apiError(this, response.statusCode, response.body, request, credentials.accessToken);
		const outcome = statusOutcome(response) as TryOutcome;
		const note = retryNote(
			request.method,
			outcome,
			run.retries,
			run.stoppedBecause,
			run.retryAfterMs,
			settings.maxDelayMs,
		);
		throw addNote(error, note);
	}
	return {
		statusCode: response.statusCode,
		headers: response.headers ?? {},
		body: (response.body === '' ? {} : response.body) as T,
	};
}
