/**
 * The three ways of sending N image moderations that the benchmark compares:
 *   (a) our node in n8n-core's real engine, (b) n8n's HTTP Request node (n8n-nodes-base of the same n8n
 *   version, loaded from the cached n8n install) set up as a user would, (c) raw undici at the same
 *   parallelism. Each run checks its own output, so a fast but wrong run cannot count.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type {
	IDataObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeExecutionData,
	IRunData,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';
import { Pool } from 'undici';

import { mapConcurrent } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/pool';
import { installDir, N8N_VERSION } from '../../dev/n8n/install';
import { ACTION_TYPE } from '../../dev/n8n/package';
import { loadNodeType, moderateUrlParameters, moderationNode, runWorkflow, type NodeOptions } from '../helpers/engine';
import type { AnyNodeType } from '../helpers/engine/node-types';
import type { NodeSpec } from '../helpers/engine/workflow';

const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';

export interface Target {
	url: string;
	token: string;
}

/** One way of sending `items` with `parallelism` requests in flight; returns one result per item, paired. */
export type Workload = (target: Target, items: INodeExecutionData[], parallelism: number) => Promise<INodeExecutionData[]>;

/** One item per image URL, as a workflow reading a list of uploads would have. */
export function imageItems(count: number, runTag: string): INodeExecutionData[] {
	return Array.from({ length: count }, (_, i) => ({
		json: { index: i, url: `https://cdn.example.com/uploads/${runTag}/${i}.jpg` },
	}));
}

/** Throws unless `out` holds one moderation result per input, in input order, paired to its input. */
export function checkOutput(out: INodeExecutionData[], count: number, label: string): void {
	if (out.length !== count) throw new Error(`${label}: ${out.length} output items for ${count} inputs`);
	for (let i = 0; i < count; i++) {
		const item = out[i];
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
		const pairedIndex = typeof paired === 'number' ? paired : paired?.item;
		if (pairedIndex !== i) throw new Error(`${label}: output ${i} is paired to input ${String(pairedIndex)}`);
		const json = item.json as Record<string, unknown>;
		if (typeof json.hash !== 'string' || typeof json.isSafe !== 'boolean') {
			throw new Error(`${label}: output ${i} is not a moderation result: ${JSON.stringify(json).slice(0, 300)}`);
		}
	}
}

// ---- (a) our node ---------------------------------------------------------------------------------------

/**
 * Our node class. Under tsx a bare `require('…/ContentModeration.node')` resolves to the codex file
 * ContentModeration.node.json (JSON before .ts), so the bench names the .ts file itself.
 */
export function ourNodeType(): INodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const mod = require('../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/ContentModeration.node.ts') as {
		ContentModeration: new () => INodeType;
	};
	return new mod.ContentModeration();
}

let ourNode: INodeType | undefined;

/** How a node run ended: its output items (empty when the execution failed) and its error. */
export interface NodeRunOutcome {
	status: string;
	out: INodeExecutionData[];
	error?: string;
	runData?: IRunData;
}

/** Our node with these request settings in Options (`{}`: the defaults, adaptive concurrency). */
export async function runOurNodeWith(
	target: Target,
	items: INodeExecutionData[],
	requestOptions: Record<string, unknown>,
	nodeOptions: NodeOptions = {},
): Promise<NodeRunOutcome> {
	ourNode ??= ourNodeType();
	const run = await runWorkflow({
		nodeTypes: { [ACTION_TYPE]: ourNode },
		nodes: [moderationNode(moderateUrlParameters({ options: requestOptions as IDataObject as never }), nodeOptions)],
		credentials: { contentModerationApi: { baseUrl: target.url, accessToken: target.token } },
		items,
		mode: 'manual',
	});
	const out = run.status === 'success' ? run.outputOf('Content Moderation') : [];
	return { status: run.status, out, error: run.error?.message };
}

/** Our node at Fixed Concurrency `concurrency` (the S3 ceiling rows); throws unless it succeeded. */
export async function runOurNode(target: Target, items: INodeExecutionData[], concurrency: number) {
	const run = await runOurNodeWith(target, items, { concurrency });
	if (run.status !== 'success') throw new Error(`our node: execution ${run.status}: ${run.error}`);
	return run.out;
}

// ---- (b) n8n's HTTP Request node -----------------------------------------------------------------------

export function nodesBaseDir(): string {
	return join(installDir(), 'node_modules', 'n8n-nodes-base');
}

export interface HttpRequestKit {
	nodeType: INodeType | IVersionedNodeType;
	headerAuth: ICredentialType;
	version: number;
}

export function loadHttpRequestNode(): HttpRequestKit {
	const dir = nodesBaseDir();
	const nodeFile = join(dir, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
	const credFile = join(dir, 'dist', 'credentials', 'HttpHeaderAuth.credentials.js');
	if (!existsSync(nodeFile) || !existsSync(credFile)) {
		throw new Error(`n8n-nodes-base ${N8N_VERSION} not found under ${dir}`);
	}
	const nodeType = loadNodeType(nodeFile, 'HttpRequest') as IVersionedNodeType;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const HeaderAuth = require(credFile).HttpHeaderAuth as new () => ICredentialType;
	// A new node in the editor gets the default (newest) version.
	return { nodeType, headerAuth: new HeaderAuth(), version: nodeType.description.defaultVersion ?? nodeType.currentVersion };
}

/** Node settings (not parameters) of HTTP Request: n8n's WorkflowExecute runs the node again on failure. */
export interface RetryOnFail {
	retryOnFail: true;
	maxTries?: number;
	waitBetweenTries?: number;
}

/** What HTTP Request posts: a path of the service and the JSON body expression; `before`: nodes ahead of it. */
export interface HttpRequestCall {
	path: string;
	jsonBody: string;
	before?: { nodes: NodeSpec[]; nodeTypes: Record<string, AnyNodeType> };
}

export const IMAGE_URL_CALL: HttpRequestCall = { path: '/image', jsonBody: '={\n  "image": "{{ $json.url }}"\n}' };

/**
 * HTTP Request as a user sets it up for this service: POST {base}/image (or `call`), Header Auth credential
 * (Authorization: Bearer …), JSON body built from the item; no Batching option unless `batching` is
 * given (without it V3 sends every item at once and awaits Promise.allSettled); node settings as given.
 */
export async function runHttpRequestNodeWith(
	kit: HttpRequestKit,
	target: Target,
	items: INodeExecutionData[],
	batching?: { batchSize: number; batchInterval: number },
	settings?: RetryOnFail,
	call: HttpRequestCall = IMAGE_URL_CALL,
): Promise<NodeRunOutcome> {
	const run = await runWorkflow({
		nodes: [
			...(call.before?.nodes ?? []),
			{
				name: 'HTTP Request',
				type: HTTP_REQUEST_TYPE,
				typeVersion: kit.version,
				parameters: {
					method: 'POST',
					url: `${target.url}${call.path}`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpHeaderAuth',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: call.jsonBody,
					options: batching ? { batching: { batch: batching } } : {},
				},
				credentials: { httpHeaderAuth: { id: '2', name: 'Moderation bearer header' } },
				...settings,
			},
		],
		credentials: { httpHeaderAuth: { name: 'Authorization', value: `Bearer ${target.token}` } },
		credentialTypes: { httpHeaderAuth: kit.headerAuth },
		nodeTypes: { [HTTP_REQUEST_TYPE]: kit.nodeType, ...call.before?.nodeTypes },
		items,
		mode: 'manual',
	});
	const out = run.status === 'success' ? run.outputOf('HTTP Request') : [];
	return { status: run.status, out, error: run.error?.message, runData: run.runData };
}

/** HTTP Request with `batching`; throws unless it succeeded. */
export async function runHttpRequestNode(
	kit: HttpRequestKit,
	target: Target,
	items: INodeExecutionData[],
	batching: { batchSize: number; batchInterval: number } | undefined,
) {
	const run = await runHttpRequestNodeWith(kit, target, items, batching);
	if (run.status !== 'success') throw new Error(`HTTP Request: execution ${run.status}: ${run.error}`);
	return run.out;
}

// ---- (c) raw undici -------------------------------------------------------------------------------------

/**
 * The floor of per-request cost: a keep-alive undici Pool with `parallelism` connections, nothing else.
 * With `newConnectionPerRequest` (row c1), each request gets a new connection (`reset: true`), as n8n's HTTP
 * client makes them (it builds a new agent for every request): that row shows what this alone costs.
 */
export async function runUndici(
	target: Target,
	items: INodeExecutionData[],
	parallelism: number,
	newConnectionPerRequest = false,
) {
	const pool = new Pool(target.url, { connections: parallelism, pipelining: 1 });
	try {
		return await mapConcurrent(items, parallelism, async (item, index) => {
			const res = await pool.request({
				method: 'POST',
				path: '/image',
				reset: newConnectionPerRequest,
				headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ image: item.json.url }),
			});
			const json = (await res.body.json()) as Record<string, unknown>;
			if (res.statusCode !== 200) throw new Error(`undici: ${res.statusCode} ${JSON.stringify(json)}`);
			return { json, pairedItem: { item: index } } as INodeExecutionData;
		});
	} finally {
		await pool.close();
	}
}

/** (c1) Raw undici with a new connection per request. */
export async function runUndiciNewConnection(target: Target, items: INodeExecutionData[], parallelism: number) {
	return await runUndici(target, items, parallelism, true);
}

// ---- (h) n8n's HTTP client alone ------------------------------------------------------------------------

interface OutboundRequests {
	request(options: IHttpRequestOptions): Promise<{ statusCode: number; body: unknown }>;
}

/**
 * n8n's own HTTP client, the one httpRequestWithAuthentication sends through after adding the header
 * (`Container.get(OutboundHttp).requests().request`), taken from n8n-core's copies of @n8n/di and
 * @n8n/backend-network so it is the same instance the engine uses.
 */
function n8nHttpClient(): OutboundRequests {
	const fromCore = createRequire(require.resolve('n8n-core'));
	/* eslint-disable @typescript-eslint/no-require-imports */
	const { Container } = fromCore('@n8n/di') as { Container: { get<T>(token: unknown): T } };
	const { OutboundHttp } = fromCore('@n8n/backend-network') as { OutboundHttp: unknown };
	/* eslint-enable @typescript-eslint/no-require-imports */
	return Container.get<{ requests(): OutboundRequests }>(OutboundHttp).requests();
}

/**
 * (h) The ceiling for any node that uses n8n's HTTP helpers: the same requests through n8n's HTTP client,
 * at the same parallelism, without the engine, expressions, credentials or a node around them.
 */
export async function runN8nHttpClient(target: Target, items: INodeExecutionData[], parallelism: number) {
	const client = n8nHttpClient();
	return await mapConcurrent(items, parallelism, async (item, index) => {
		const res = await client.request({
			method: 'POST',
			url: `${target.url}/image`,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			headers: { Authorization: `Bearer ${target.token}` },
			body: { image: item.json.url },
		});
		if (res.statusCode !== 200) throw new Error(`n8n HTTP client: ${res.statusCode} ${JSON.stringify(res.body)}`);
		return { json: res.body, pairedItem: { item: index } } as INodeExecutionData;
	});
}
