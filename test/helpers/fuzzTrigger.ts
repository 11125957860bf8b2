/**
 * The trigger's webhook() called in process, as n8n's webhook handler calls it: n8n-core's real
 * WebhookContext over a request prepared like n8n's body parser, and a response object that records
 * what the node answers itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { IDataObject, INodeParameters, INodeType, IWebhookResponseData } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../dev/n8n/package';
import { prepareWorkflow, triggerNode } from './engine';
import { webhookContext } from './engine/webhookContext';

const NAME = 'Content Moderation Trigger';

/**
 * One trigger node (newest version) with a credential; returns a function running its webhook() once.
 * `mode` 'manual': the editor's test URL (a published trigger refuses a secret under 16 characters).
 */
export async function triggerFor(baseUrl: string, accessToken: string, callbackSecret: string, parameters: INodeParameters, mode: 'webhook' | 'manual' = 'webhook') {
	const prepared = await prepareWorkflow({
		nodes: [triggerNode(parameters, { name: NAME, withCredentials: true })],
		credentials: { [CREDENTIAL_TYPE]: { baseUrl, accessToken, callbackSecret } },
		webhookBaseUrl: 'http://n8n.test',
		mode,
	});
	const node = prepared.workflow.getNode(NAME);
	if (!node) throw new Error('no trigger');
	const nodeType = prepared.workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
	const description = nodeType.description.webhooks?.[0];
	if (!description || !nodeType.webhook) throw new Error('no webhook');
	const webhook = nodeType.webhook;
	return async (req: object, res: object): Promise<IWebhookResponseData> => {
		const context = webhookContext({
			core: prepared.core,
			workflow: prepared.workflow,
			node,
			description,
			additionalData: prepared.additionalData,
			req: req as IncomingMessage,
			res: res as ServerResponse,
			mode,
			runExecutionData: null,
			webhookId: node.webhookId,
		});
		return await webhook.call(context);
	};
}

/**
 * The body as n8n hands it over (JSON parsed, text/plain as text, anything else only as raw bytes), or
 * undefined for a malformed JSON body, which n8n refuses itself (422) before any node runs.
 */
export function bodyAsN8nParses(text: string, contentType: string): { body: unknown } | undefined {
	if (contentType === 'text/plain') return { body: text };
	if (contentType !== 'application/json' || text === '') return { body: undefined };
	try {
		return { body: JSON.parse(text) as unknown };
	} catch {
		return undefined;
	}
}

export function fakeRequest(text: string, contentType: string, token: { query: IDataObject; headers: IDataObject }) {
	const parsed = bodyAsN8nParses(text, contentType);
	if (parsed === undefined) return undefined;
	const headers = { ...(contentType === '' ? {} : { 'content-type': contentType }), ...token.headers };
	return { headers, query: token.query, params: {}, body: parsed.body, rawBody: Buffer.from(text), contentType: contentType || undefined };
}

/** What the node writes when it answers itself; n8n's answer otherwise, once the execution exists. */
export function fakeResponse() {
	const res = {
		statusCode: 200,
		writableEnded: false,
		text: '',
		writeHead(status: number) {
			res.statusCode = status;
			return res;
		},
		end(chunk?: string) {
			res.text += chunk ?? '';
			res.writableEnded = true;
			return res;
		},
	};
	return res;
}
