/**
 * The one way to the service: an API client built once per node run (or per callback) with the
 * credential, the retry settings and the cancel signal of that run, and handed to whoever sends.
 */
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { parseBaseUrl } from './baseUrl';
import { addSecrets, redact } from './redact';
import { addNote, apiError, networkError } from './errors';
import { encodeLargeJsonBody } from './jsonBody';
import { RequestLimiter } from './limiter';
import type { LimiterSettings, SendOutcome } from './limiter';
import { networkErrorCode, parseRetryAfter } from './retry';
import type { RetrySettings, TryOutcome } from './retry';
import { retryNote, withRetries } from './retryLoop';

export const CREDENTIAL_TYPE = 'contentModerationApi';

/** Credential fields that must never appear in an error or output. */
const SECRET_FIELDS = ['accessToken', 'callbackSecret'];

export type ApiContext = IExecuteFunctions | IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, starting with "/"; encode parameters with `pathSegment`. */
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	itemIndex?: number;
	/** Values the request carries that must not reach an error (besides the access token) */
	secrets?: string[];
}

export interface ApiResponse<T> {
	statusCode: number;
	headers: Record<string, unknown>;
	body: T;
}

export interface ClientSettings {
	retry: RetrySettings;
	/** Once aborted, nothing more is sent and no retry waits (the execution's cancel signal). */
	signal?: AbortSignal;
	/** Requests and body bytes in flight for this client (one node run); unlimited when absent. */
	limiter?: LimiterSettings;
}

export interface ApiClient {
	request<T = IDataObject>(request: ApiRequest): Promise<ApiResponse<T>>;
	/**
	 * Waits until `bytes` of request body fit in this run's budget and returns the release; called before
	 * a large body (a binary image) is read, so a grown limit cannot hold many of them at once.
	 */
	reserveBodyBytes(bytes: number): Promise<() => void>;
	/** The credential's Callback Secret; '' when it is not set. */
	callbackSecret(): Promise<string>;
	/**
	 * Every secret this client knows: the credential's (once read) and those callers add (a token in a
	 * callback URL). Whatever leaves the node run is redacted with these.
	 */
	readonly secrets: string[];
}

interface FullResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body?: unknown;
}

// The spec gives no timeouts; without one a hung connection would hold a concurrency slot forever.
// 5 minutes, as n8n's HTTP Request node. A timed-out GET is retried, a timed-out POST is not (it may
// have been acted on).
const REQUEST_TIMEOUT_MS = 300_000;

/** Network failures that suggest an overloaded service (as opposed to nothing listening at all). */
const OVERLOAD_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNABORTED', 'ECONNRESET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** What one answer tells the limiter about the service's load. */
function loadSignal(response: FullResponse, latencyMs: number): SendOutcome {
	const status = response.statusCode;
	if (status === 429 || status === 503) {
		return { kind: 'throttled', retryAfterMs: parseRetryAfter(response.headers?.['retry-after']) };
	}
	if (status === 502 || status === 504) return { kind: 'overloaded' };
	if (status >= 500) return { kind: 'neutral' };
	return { kind: 'success', latencyMs };
}

/** A non-2xx response as the retry policy sees it; undefined for a success. */
function statusOutcome(response: FullResponse): TryOutcome | undefined {
	if (response.statusCode >= 200 && response.statusCode <= 299) return undefined;
	return { kind: 'status', statusCode: response.statusCode, retryAfter: response.headers?.['retry-after'] };
}

function requestOptions(baseUrl: string, request: ApiRequest): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		json: true,
		returnFullResponse: true,
		// Status errors are mapped by this client, with the service's message and without the request's headers.
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
	return options;
}

export function createApiClient(ctx: ApiContext, settings: ClientSettings): ApiClient {
	const { retry, signal } = settings;
	// n8n decrypts the credential on every getCredentials call (a database read on a server), and
	// httpRequestWithAuthentication would read it again: one read per client is enough.
	let credential: Promise<ICredentialsDecrypted> | undefined;
	const secrets: string[] = [];
	const readCredential = (): Promise<ICredentialsDecrypted> => {
		if (credential === undefined) {
			const ref = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
			credential = ctx.getCredentials(CREDENTIAL_TYPE).then((data) => {
				addSecrets(secrets, ...SECRET_FIELDS.map((field) => data[field]));
				return { id: ref?.id ?? '', name: ref?.name ?? '', type: CREDENTIAL_TYPE, data };
			});
			// A failed read is not kept: each item then reports it (with its own item index).
			credential.catch(() => (credential = undefined));
		}
		return credential;
	};

	const cancelled = () => new NodeOperationError(ctx.getNode(), 'The execution was cancelled');
	// One limiter per client, so the run's items share its limit and its Retry-After pause.
	const limiter = settings.limiter ? new RequestLimiter(settings.limiter, { now: Date.now, sleep }) : undefined;
	// The limiter's waits fail only when the run is cancelled.
	const waitFor = async <W>(wait: Promise<W>): Promise<W> => {
		try {
			return await wait;
		} catch {
			throw cancelled();
		}
	};

	return {
		async reserveBodyBytes(bytes: number) {
			if (!limiter) return () => {};
			return await waitFor(limiter.reserveBytes(bytes, signal));
		},
		secrets,
		async callbackSecret(): Promise<string> {
			const value = (await readCredential()).data?.callbackSecret;
			return typeof value === 'string' ? value : '';
		},
		async request<T>(request: ApiRequest): Promise<ApiResponse<T>> {
			const credentialsDecrypted = await readCredential();
			const credentials = credentialsDecrypted.data ?? {};
			// The run's secrets plus those only this request knows (Wait for Callback's item key and resume token).
			const known = request.secrets ? [...secrets, ...request.secrets] : secrets;
			const base = parseBaseUrl(credentials.baseUrl);
			if ('error' in base) {
				throw new NodeOperationError(ctx.getNode(), redact(base.error, known), {
					itemIndex: request.itemIndex,
					description:
						'Open the credential and enter the service address, for example https://moderation.example.com',
				});
			}
			const options = requestOptions(base.url, request);

			// Retries (429/503 Retry-After, backoff, POST-safe rules) happen here, so callers never retry.
			const run = await withRetries(request.method, retry, {
				send: async () => {
					if (signal?.aborted) throw cancelled();
					const permit = limiter ? await waitFor(limiter.acquire(signal)) : undefined;
					const started = Date.now();
					const pending = ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options, {
						credentialsDecrypted,
					}) as Promise<FullResponse>;
					// The limiter learns from every answer and failure; the caller gets them unchanged.
					pending.then(
						(response) => permit?.release(loadSignal(response, Date.now() - started)),
						(error: unknown) => {
							const code = networkErrorCode(error);
							permit?.release({ kind: code !== undefined && OVERLOAD_CODES.has(code) ? 'overloaded' : 'neutral' });
						},
					);
					return await pending;
				},
				statusOf: statusOutcome,
				sleep: async (ms) => {
					if (signal?.aborted) throw cancelled();
					if (ms > 0) await sleep(ms);
					if (signal?.aborted) throw cancelled();
				},
			});
			if (run.kind === 'network') {
				if (run.error instanceof NodeOperationError) throw run.error;
				const error = networkError(ctx.getNode(), run.error, request, base.url, known);
				const outcome: TryOutcome = { kind: 'network', code: networkErrorCode(run.error) };
				throw addNote(error, retryNote(request.method, outcome, run.retries, run.stoppedBecause));
			}
			const response = run.result;
			if (run.kind === 'status') {
				const error = apiError(ctx.getNode(), response.statusCode, response.body, request, known);
				const note = retryNote(
					request.method,
					statusOutcome(response) as TryOutcome,
					run.retries,
					run.stoppedBecause,
					run.retryAfterMs,
					retry.maxDelayMs,
				);
				throw addNote(error, note);
			}
			return {
				statusCode: response.statusCode,
				headers: response.headers ?? {},
				body: (response.body === '' ? {} : response.body) as T,
			};
		},
	};
}
