/**
 * The one way to the service: an API client built once per node run (or per callback) with the
 * credential, the retry settings and the cancel signal of that run, and handed to whoever sends. Its
 * sends go through the service's limiter, shared by the whole process (limiter/registry.ts).
 */
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { parseBaseUrl } from './baseUrl';
import { addSecrets, redact } from '../redaction/redact';
import { addNote, apiError, networkError } from './errors';
import { failureSignal, loadSignal, requestOptions, statusOutcome, type FullResponse } from './http';
import type { RunLimiter, RunSettings } from '../limiter/limiter';
import { SHARED_CAP } from '../limiter/limiter';
import { limiters, serviceKey } from '../limiter/registry';
import { networkErrorCode } from '../retry/policy';
import type { RetrySettings, TryOutcome } from '../retry/policy';
import { retryNote, withRetries } from '../retry/loop';

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
	/** Once aborted, nothing more is sent and no retry waits (the execution's cancel, or the run's failure). */
	signal?: AbortSignal;
	/** This run's share of the service's limiter; absent: adaptive, capped only by the shared limit. */
	limiter?: RunSettings;
}

export interface ApiClient {
	request<T = IDataObject>(request: ApiRequest): Promise<ApiResponse<T>>;
	/**
	 * Waits until `bytes` of request body fit in the process's budget and returns the release; called before
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
	const runSettings = settings.limiter ?? { adaptive: true, cap: SHARED_CAP };
	// The run's way into its service's limiter: one per client (one credential, one base URL).
	let limiter: RunLimiter | undefined;
	const limiterFor = (baseUrl: string, accessToken: unknown): RunLimiter =>
		(limiter ??= limiters.limiterFor(serviceKey(baseUrl, accessToken)).openRun(runSettings, signal));
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
			// Fixed Concurrency holds exactly its number of bodies, as before.
			if (!runSettings.adaptive) return () => {};
			return await waitFor(limiters.bytes.reserve(bytes, signal));
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
			const options = requestOptions(base.url, request, signal);
			const runLimiter = limiterFor(base.url, credentials.accessToken);

			// Retries (429/503 Retry-After, backoff, POST-safe rules) happen here, so callers never retry.
			const run = await withRetries(request.method, retry, {
				send: async () => {
					if (signal?.aborted) throw cancelled();
					const permit = await waitFor(runLimiter.acquire());
					const started = Date.now();
					const pending = ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options, {
						credentialsDecrypted,
					}) as Promise<FullResponse>;
					// The limiter learns from every answer and failure; the caller gets them unchanged.
					pending.then(
						(response) => permit.release(loadSignal(response, Date.now() - started)),
						(error: unknown) => permit.release(failureSignal(error)),
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
