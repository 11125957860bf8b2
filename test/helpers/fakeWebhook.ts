/**
 * A fake webhook context (IWebhookFunctions) for calling a callback handler in process without n8n: a JSON
 * body as n8n parsed it, the node's parameters, an optional credential, a response that records what the node
 * answers itself, and the service's answers to the credential's requests (httpRequestWithAuthentication).
 */
import type { IDataObject, IHttpRequestOptions, IWebhookFunctions } from 'n8n-workflow';

export interface FakeWebhookSetup {
	/** The body as n8n parsed it (application/json); a string is sent as text/plain. */
	body?: unknown;
	query?: IDataObject;
	headers?: IDataObject;
	/** The node's parameters; a dotted name ('options.x') is read from the nested object. */
	parameters?: IDataObject;
	/** The credential's data; undefined: none selected. `id`: the credential's reference id. */
	credential?: {
		id?: string | null;
		callbackSecret?: string;
		accessToken?: string;
	};
	/** Other credentials of the node (none of this package's type): `credentials` set without it. */
	otherCredentialsOnly?: boolean;
	mode?: 'webhook' | 'manual';
	workflowId?: string;
	webhookId?: string;
	/** What `evaluateExpression` gives (Wait for Callback reads its node context and input items so). */
	evaluate?: (expression: string) => unknown;
	executionId?: string;
	/** The service's answer to a request (a read); default 404. */
	answer?: (request: IHttpRequestOptions) => {
		statusCode: number;
		body: unknown;
	};
}

export interface FakeResponse {
	statusCode: number;
	writableEnded: boolean;
	headersSent: boolean;
	writeHead(status: number): FakeResponse;
	/** n8n's answer (or the node's own): ends the response. */
	end(text?: string): FakeResponse;
}

export function fakeWebhook(setup: FakeWebhookSetup = {}) {
	const { body, query = {}, headers = {}, parameters = {}, credential, mode = 'webhook' } = setup;
	/** What the node answered itself (a refusal): status and parsed JSON body. */
	const written: Array<{ status: number; body: unknown }> = [];
	const requests: IHttpRequestOptions[] = [];
	/** What the node logged at warn level. */
	const warnings: string[] = [];
	const response: FakeResponse = {
		statusCode: 200,
		writableEnded: false,
		headersSent: false,
		writeHead(status) {
			response.statusCode = status;
			response.headersSent = true;
			return response;
		},
		end(text) {
			response.writableEnded = true;
			if (text !== undefined)
				written.push({
					status: response.statusCode,
					body: JSON.parse(text) as unknown,
				});
			return response;
		},
	};
	const text = typeof body === 'string';
	const raw = body === undefined ? '' : text ? body : JSON.stringify(body);
	const credentials =
		credential !== undefined
			? {
					contentModerationApi: {
						id: credential.id === undefined ? 'c1' : credential.id,
						name: 'account',
					},
				}
			: setup.otherCredentialsOnly === true
				? { httpHeaderAuth: { id: 'h1', name: 'other' } }
				: undefined;
	const node = {
		id: 'node-1',
		name: 'Node',
		type: 'test',
		typeVersion: 1,
		position: [0, 0],
		parameters,
		webhookId: setup.webhookId ?? 'hook-1',
		credentials,
	};
	const parameter = (name: string): unknown =>
		name.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], parameters);
	const ctx = {
		getNode: () => node,
		getWorkflow: () => ({ id: setup.workflowId }),
		getMode: () => mode,
		getExecutionId: () => setup.executionId ?? 'exec-1',
		evaluateExpression: (expression: string) => setup.evaluate?.(expression),
		getHeaderData: () => headers,
		getQueryData: () => query,
		getBodyData: () => body,
		getRequestObject: () => ({
			contentType: text ? 'text/plain' : 'application/json',
			headers: {
				...headers,
				'content-type': text ? 'text/plain' : 'application/json',
			},
			rawBody: Buffer.from(raw),
		}),
		getResponseObject: () => response,
		logger: { warn: (message: string) => warnings.push(message), debug: () => {}, info: () => {}, error: () => {} },
		getNodeParameter: (name: string, fallback?: unknown) => parameter(name) ?? fallback,
		// As n8n: with no credential of this type selected, reading one fails.
		getCredentials: async () => {
			if (credential === undefined) throw new Error('Node does not have any credentials set');
			return { baseUrl: 'http://service.test', accessToken: 'sk-test-0001', ...credential };
		},
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				requests.push(options);
				const { statusCode, body: answerBody } = setup.answer?.(options) ?? {
					statusCode: 404,
					body: {},
				};
				return { statusCode, headers: {}, body: answerBody };
			},
		},
	};
	return {
		ctx: ctx as unknown as IWebhookFunctions,
		written,
		requests,
		response,
		warnings,
	};
}
