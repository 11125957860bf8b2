/**
 * A node:http server that hands each request to the trigger's `webhook()` through n8n-core's real
 * `WebhookContext`, the way n8n's webhook handler does for a production URL
 * (`/webhook/<webhookId>/callback`):
 * - the request is prepared like n8n's body parsing for the trigger's typeVersion
 *   (engine/n8nBodyParsing.ts: above 1, a body of a type n8n does not parse reaches the node unread);
 * - the answer follows n8n's `onReceived` rules: nothing more when the node answered itself
 *   (`noWebhookResponse`), else 200 with the node's `webhookResponse` or n8n's placeholder, and a
 *   thrown error is n8n's 500 "Workflow could not be started!";
 * - credentials, request helpers and the workflow come from the engine harness
 *   (test/helpers/engine.ts), so `httpRequestWithAuthentication` really reaches the service.
 *
 * Every request gets a fresh Workflow and node instance, like separate webhook processes in queue
 * mode, so the node cannot rely on memory between calls.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookResponseData,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, TRIGGER_TYPE } from '../../dev/n8n/package';
import { waitFor } from '../../dev/wait';
import { prepareWorkflow, triggerNode } from './engine';
import { N8nRefusal, parseRequestBody, readableRequest } from './engine/n8nBodyParsing';
import { ownNodeVersion } from './engine/node-types';
import { webhookContext } from './engine/webhookContext';
import { resetProcessState } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';

export const TRIGGER_NAME = 'Content Moderation Trigger';
export const WEBHOOK_ID = '3f0c2a57-8d0e-4d5b-9c1e-6a7b8c9d0e1f';
/** What n8n answers when a node returns no `webhookResponse`; our trigger must never leave it. */
export const N8N_PLACEHOLDERS: unknown[] = [
	{ message: 'Workflow was started' },
	{ message: 'Webhook call received' },
	'firstEntryJson',
];

export interface TriggerCall {
	status: number;
	/** Parsed JSON answer (raw text when not JSON) */
	body: unknown;
	/** Items the call started the workflow with; undefined when it started nothing */
	items?: INodeExecutionData[];
	/** How long the node's webhook() took (ms), when it returned */
	webhookMs?: number;
}

export interface TriggerServer {
	/** Base URL of the server, like an n8n instance's */
	baseUrl: string;
	/** The production webhook URL: `<base>/webhook/<webhookId>/callback`, with `?token=` when one was given */
	webhookUrl: string;
	/** The URL the trigger itself reports through `getNodeWebhookUrl('default')` (set after the first call) */
	reportedUrl?: string;
	calls: TriggerCall[];
	/** Items of every started execution, in order */
	executions: INodeExecutionData[][];
	/** Resolves once `count` executions were started; rejects after timeoutMs */
	waitForExecutions(count: number, timeoutMs?: number): Promise<void>;
	stop(): Promise<void>;
}

export interface TriggerServerOptions {
	parameters: INodeParameters;
	/** Credential data for contentModerationApi; the node has no credential when omitted */
	credentials?: ICredentialDataDecryptedObject;
	/** The node names a credential that cannot be read (deleted, or a decryption failure) */
	unreadableCredential?: boolean;
	/** The trigger node's webhook id (default WEBHOOK_ID): another id is another trigger node */
	webhookId?: string;
	/** The typeVersion the workflow holds for the trigger (default: the one it declares); n8n parses bodies by it */
	typeVersion?: number;
	/** A token `webhookUrl` carries (`?token=`): the tests' own Callback Secret, so that their calls pass. */
	token?: string;
	/** n8n's mode of the call: 'webhook' (a published workflow, the default) or 'manual' (the test URL). */
	mode?: 'webhook' | 'manual';
}

/** A Callback Secret long enough for a published trigger (inbound/secretRule.ts). */
export const TEST_CALLBACK_SECRET = 'cb-test-secret/5e2a9c71';

/** n8n's reading of a request before the node runs: the query, and the body as n8n's parseRequestBody leaves it. */
async function prepareRequest(req: IncomingMessage, typeVersion: number) {
	const request = readableRequest(req) as IncomingMessage & { query: IDataObject; params: IDataObject };
	request.query = parseQueryString(new URL(req.url ?? '/', 'http://localhost').search.slice(1)) as IDataObject;
	request.params = {};
	await parseRequestBody(request, typeVersion);
}

/**
 * n8n's answer to an `onReceived` call the node did not answer itself: without an execution the
 * node's webhookResponse or a placeholder; with one, the description's `responseData` (evaluated
 * with the default 'firstEntryJson', sent as text when truthy), else webhookResponse or a placeholder.
 */
function onReceivedBody(responseData: unknown, result: IWebhookResponseData): unknown {
	if (result.workflowData === undefined) return result.webhookResponse ?? N8N_PLACEHOLDERS[1];
	const evaluated = responseData === undefined ? 'firstEntryJson' : responseData;
	if (evaluated === 'noData') return undefined;
	if (evaluated) return evaluated;
	return result.webhookResponse ?? N8N_PLACEHOLDERS[0];
}

function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
}

export async function startTriggerServer(options: TriggerServerOptions): Promise<TriggerServer> {
	// A new server stands for a new process: what an earlier test's trigger learnt about its secret is gone.
	resetProcessState();
	const typeVersion = options.typeVersion ?? ownNodeVersion(TRIGGER_TYPE);
	const calls: TriggerCall[] = [];
	const executions: INodeExecutionData[][] = [];
	let baseUrl = '';
	const state: { reportedUrl?: string } = {};
	const webhookId = options.webhookId ?? WEBHOOK_ID;
	const webhookPath = `/webhook/${webhookId}/callback`;

	function record(call: TriggerCall): void {
		calls.push(call);
		if (call.items) {
			executions.push(call.items);
		}
	}

	/** Runs webhook() and answers; the call is recorded before the answer goes out. */
	async function runTrigger(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const prepared = await prepareWorkflow({
			nodes: [
				triggerNode(options.parameters, {
					name: TRIGGER_NAME,
					webhookId,
					typeVersion,
					withCredentials: options.credentials !== undefined || options.unreadableCredential === true,
				}),
			],
			credentials: options.credentials ? { [CREDENTIAL_TYPE]: options.credentials } : {},
			webhookBaseUrl: baseUrl,
			mode: options.mode ?? 'webhook',
		});
		const { workflow, core } = prepared;
		const node = workflow.getNode(TRIGGER_NAME);
		if (!node) throw new Error('trigger node missing from the workflow');
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
		const description = nodeType.description.webhooks?.[0];
		if (!description || typeof nodeType.webhook !== 'function') throw new Error('trigger has no webhook');

		const context = webhookContext({
			core,
			workflow,
			node,
			description,
			additionalData: prepared.additionalData,
			req,
			res,
			mode: options.mode ?? 'webhook',
			runExecutionData: null,
			webhookId,
		});
		state.reportedUrl = context.getNodeWebhookUrl('default');

		let result: IWebhookResponseData;
		const started = performance.now();
		try {
			result = await nodeType.webhook.call(context);
		} catch {
			const body = { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' };
			record({ status: 500, body });
			send(res, 500, body);
			return;
		}
		if (result.noWebhookResponse === true) {
			// The node answered itself; its answer is read by the caller, not here.
			record({ status: res.statusCode, body: undefined, webhookMs: performance.now() - started });
			return;
		}
		const body = onReceivedBody(description.responseData, result);
		record({ status: 200, body, items: result.workflowData?.[0], webhookMs: performance.now() - started });
		if (typeof body === 'string') {
			res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
			res.end(body);
		} else {
			send(res, 200, body);
		}
	}

	const server = createServer((req, res) => {
		void (async () => {
			const target = (req.url ?? '/').split('?')[0];
			if (req.method !== 'POST' || target !== webhookPath) {
				send(res, 404, { code: 404, message: `The requested webhook "${req.method} ${target}" is not registered.` });
				return;
			}
			try {
				await prepareRequest(req, typeVersion);
			} catch (error) {
				const refusal = error as N8nRefusal;
				send(res, refusal.status ?? 500, { message: refusal.message });
				return;
			}
			await runTrigger(req, res);
		})().catch((error: unknown) => {
			if (!res.headersSent) send(res, 500, { message: String(error) });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	return {
		baseUrl,
		webhookUrl: `${baseUrl}${webhookPath}${options.token === undefined ? '' : `?token=${encodeURIComponent(options.token)}`}`,
		get reportedUrl() {
			return state.reportedUrl;
		},
		calls,
		executions,
		async waitForExecutions(count, timeoutMs = 10_000) {
			await waitFor(`${count} trigger executions`, () => (executions.length >= count ? true : undefined), timeoutMs, 20);
		},
		async stop() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** POSTs to the trigger like a service callback; `body` is sent as is when it is a string. */
export async function postCallback(
	url: string,
	body: unknown,
	init: { query?: Record<string, string>; headers?: Record<string, string>; contentType?: string | null; timeoutMs?: number } = {},
): Promise<{ status: number; body: unknown }> {
	const target = new URL(url);
	for (const [key, value] of Object.entries(init.query ?? {})) target.searchParams.append(key, value);
	const headers: Record<string, string> = { ...(init.headers ?? {}) };
	const contentType = init.contentType === undefined ? 'application/json' : init.contentType;
	if (contentType !== null) headers['content-type'] = contentType;
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	const response = await fetch(target, {
		method: 'POST',
		headers,
		// Bytes, not a string: fetch would add text/plain to a string sent without a content type.
		body: contentType === null ? new TextEncoder().encode(text) : text,
		signal: AbortSignal.timeout(init.timeoutMs ?? 10_000),
	});
	const answer = await response.text();
	let parsed: unknown = answer;
	try {
		parsed = JSON.parse(answer);
	} catch {
		// keep the text
	}
	return { status: response.status, body: parsed };
}
