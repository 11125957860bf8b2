/** The one way to the service: a client per node run (or callback), sending through the process's shared limiter. */
import type { ICredentialsDecrypted, IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { operationError } from '../helpers/errorItems';
import { parseBaseUrl } from './baseUrl';
import { addSecrets, redact } from '../redaction/redact';
import { addNote, apiError, networkError } from './errors';
import {
	failureSignal,
	httpOptions,
	loadSignal,
	statusOutcome,
	type ApiRequest,
	type FullResponse,
	type RequestBody,
	type UnreadBody,
} from './http';
import type { LimiterShare, ServiceLimiter, ShareSettings } from '../limiter/limiter';
import { SHARED_CAP } from '../limiter/limiter';
import { limiters, serviceKey } from '../limiter/registry';
import type { RetrySettings } from '../retry/policy';
import { retryNote, withRetries } from '../retry/loop';

export const CREDENTIAL_TYPE = 'contentModerationApi';

const SECRET_FIELDS = ['accessToken', 'callbackSecret'];

export type { ApiRequest, RequestBody, UnreadBody } from './http';

export type ApiContext = IExecuteFunctions | IWebhookFunctions;

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
	limiter?: ShareSettings;
}

const UNREADABLE_BINARY =
	"n8n could not give back the binary file's data. Check that the file still exists in n8n's binary data store, then run the workflow again.";
const isUnread = (body: RequestBody): body is UnreadBody<IDataObject> => typeof body.read === 'function';

export interface ApiClient {
	/** Sends once the limiter gives it a place and room for its body, which is built (a lazy one read) only then. */
	request<T = IDataObject>(request: ApiRequest): Promise<ApiResponse<T>>;
	/** '' when not set. */
	callbackSecret(): Promise<string>;
	credentialSecrets(): Promise<string[]>;
	/** The credential's (once read) and those callers add: whatever leaves the node run is redacted with these. */
	readonly secrets: string[];
	/** The credential's Base URL; undefined when it is not a valid one. */
	baseUrl(): Promise<string | undefined>;
	/** Requests refused with 429 or 503 and sent again; the sends at a time this run may have now. */
	load(): { resent: number; limit: number };
}

export function createApiClient(ctx: ApiContext, settings: ClientSettings): ApiClient {
	const { retry, signal } = settings;
	// n8n decrypts the credential on every read (a database read on a server): one read per client.
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
	const shareSettings = settings.limiter ?? { adaptive: true, cap: SHARED_CAP };
	let share: LimiterShare | undefined;
	let limiter: ServiceLimiter | undefined;
	const shareOf = (baseUrl: string, accessToken: unknown): LimiterShare =>
		(share ??= (limiter = limiters.limiterFor(serviceKey(baseUrl, accessToken))).openShare(shareSettings, signal));
	let resent = 0;
	// The limiter's waits fail only when the run is cancelled.
	const waitFor = async <W>(wait: Promise<W>): Promise<W> => {
		try {
			return await wait;
		} catch {
			throw cancelled();
		}
	};

	// n8n-core takes a request's abortSignal from the context the helper is called on: the run's own here.
	const requestCtx: ApiContext = signal
		? Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } })
		: ctx;

	return {
		secrets,
		async baseUrl() {
			const base = parseBaseUrl((await readCredential()).data?.baseUrl);
			return 'url' in base ? base.url : undefined;
		},
		load: () => ({
			resent,
			limit: Math.min(shareSettings.adaptive ? (limiter?.limit ?? 1) : Infinity, shareSettings.cap),
		}),
		async callbackSecret(): Promise<string> {
			const value = (await readCredential()).data?.callbackSecret;
			return typeof value === 'string' ? value : '';
		},
		async credentialSecrets(): Promise<string[]> {
			const data = (await readCredential()).data ?? {};
			return SECRET_FIELDS.map((field) => data[field]).filter(
				(value): value is string => typeof value === 'string' && value !== '',
			);
		},
		async request<T>(request: ApiRequest): Promise<ApiResponse<T>> {
			const credentialsDecrypted = await readCredential();
			const credentials = credentialsDecrypted.data ?? {};
			const known = request.secrets ? [...secrets, ...request.secrets] : secrets;
			const base = parseBaseUrl(credentials.baseUrl);
			if ('error' in base) {
				const description =
					'Open the credential and enter the service address, for example https://moderation.example.com';
				throw operationError(ctx.getNode(), request.itemIndex, redact(base.error, known), description);
			}
			const limiterShare = shareOf(base.url, credentials.accessToken);
			// A binary n8n cannot give back is the input's fault, not the service's: no retry, no "could not reach".
			const readBody = async (body: UnreadBody<IDataObject>) =>
				await body.read().catch((error: unknown) => {
					if (error instanceof NodeOperationError) throw error;
					const reason = redact(error instanceof Error ? error.message : String(error), known);
					// The cause goes in the description: n8n rewrites a message that names ENOENT or ECONNREFUSED.
					const description = `${UNREADABLE_BINARY} (${reason})`;
					throw operationError(ctx.getNode(), request.itemIndex, 'Could not read the image to send', description);
				});
			const { body: unread } = request;
			const bodyBytes = unread === undefined ? 0 : isUnread(unread) ? unread.bodyBytes : JSON.stringify(unread).length;

			let refused = false;
			const outcome = await withRetries(request.method, retry, {
				send: async () => {
					refused = false;
					if (signal?.aborted) throw cancelled();
					const permit = await waitFor(limiterShare.acquire(bodyBytes));
					let options;
					try {
						const body = unread !== undefined && isUnread(unread) ? await readBody(unread) : unread;
						options = httpOptions(base.url, { ...request, body }, signal);
					} finally {
						// A body that could not be built (an unreadable binary) gives its place back at once.
						if (options === undefined) permit.release({ kind: 'neutral' });
					}
					const started = Date.now();
					// A helper that throws, or answers, without a promise must still give the place back.
					const send = ctx.helpers.httpRequestWithAuthentication;
					const pending = new Promise<FullResponse>((resolve) =>
						resolve(send.call(requestCtx, CREDENTIAL_TYPE, options, { credentialsDecrypted }) as Promise<FullResponse>),
					);
					// The limiter learns from every answer and failure but the run's own abort; the place is held until the end.
					pending.then(
						(response) => permit.release(loadSignal(response, Date.now() - started)),
						(error: unknown) => permit.release(signal?.aborted ? { kind: 'neutral' } : failureSignal(error)),
					);
					const response = await pending;
					refused = response.statusCode === 429 || response.statusCode === 503;
					return response;
				},
				statusOf: statusOutcome,
				sleep: async (ms) => {
					if (refused) resent++;
					if (signal?.aborted) throw cancelled();
					if (ms > 0) await sleep(ms);
					if (signal?.aborted) throw cancelled();
				},
			});
			if (outcome.kind === 'network') {
				if (outcome.error instanceof NodeOperationError) throw outcome.error;
				throw addNote(networkError(ctx.getNode(), outcome.error, request, base.url, known), retryNote(outcome));
			}
			const response = outcome.result;
			if (outcome.kind === 'status') {
				const { statusCode, body } = response;
				throw addNote(apiError(ctx.getNode(), statusCode, body, request, base.url, known), retryNote(outcome));
			}
			return {
				statusCode: response.statusCode,
				headers: response.headers ?? {},
				body: (response.body === '' ? {} : response.body) as T,
			};
		},
	};
}
