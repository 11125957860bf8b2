/**
 * Self-test of the engine harness, independent of the action node: a tiny node that sends each
 * item through the shared transport to a local echo server.
 */
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { createApiClient } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/transport/client';
import { DEFAULT_RETRY_SETTINGS } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/retry/policy';
import { binaryItem, dumpRun, runWorkflow, START_NODE_NAME } from './engine';
import { testNodeDescription } from './fixtures';

interface Received {
	method?: string;
	url?: string;
	headers: IncomingHttpHeaders;
	body: string;
}

const TOKEN = 'harness-secret-token-123';
const received: Received[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			received.push({ method: req.method, url: req.url, headers: req.headers, body });
			const status = req.url?.startsWith('/status/') ? Number(req.url.slice(8)) : 200;
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(
				status === 200
					? JSON.stringify({ echoed: body ? JSON.parse(body) : null })
					: JSON.stringify({ error: { status, code: 'x', message: `failed with ${status}` } }),
			);
		});
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.close();
	await once(server, 'close');
});

beforeEach(() => {
	received.length = 0;
});

/** Sends each item to /echo (or /status/<json.status>), with binary bytes as base64 when present. */
const echoNode: INodeType = {
	description: testNodeDescription('Echo', 'test node', {
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		credentials: [{ name: 'contentModerationApi', required: true }],
	}),
	async execute(this: IExecuteFunctions) {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		const client = createApiClient(this, { retry: DEFAULT_RETRY_SETTINGS });
		for (let i = 0; i < items.length; i++) {
			try {
				const json = items[i].json;
				if (json.throw) throw new NodeOperationError(this.getNode(), 'asked to fail', { itemIndex: i });
				const body: IDataObject = { index: i };
				if (items[i].binary?.data) {
					body.storedData = items[i].binary!.data.data;
					body.bytes = (await this.helpers.getBinaryDataBuffer(i, 'data')).toString('base64');
				}
				const path = json.status ? `/status/${json.status as number}` : '/echo';
				const res = await client.request({ method: 'POST', path, body, itemIndex: i });
				out.push({ json: res.body as IDataObject, pairedItem: { item: i } });
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
			}
		}
		return [out, []];
	},
};

const creds = () => ({ contentModerationApi: { baseUrl, accessToken: TOKEN } });
const echo = { name: 'Echo', type: 'test.echo', parameters: {}, credentials: { contentModerationApi: { id: '1', name: 'c' } } };

describe('engine harness', () => {
	it('runs a workflow through WorkflowExecute with the credential applied for real', async () => {
		const run = await runWorkflow({
			nodes: [echo],
			nodeTypes: { 'test.echo': echoNode },
			credentials: creds(),
			items: [{ json: { a: 1 } }, { json: { a: 2 } }],
		});
		expect(run.status).toBe('success');
		expect(received).toHaveLength(2);
		expect(received[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
		expect(received.map((r) => JSON.parse(r.body).index)).toEqual([0, 1]);
		const out = run.outputOf('Echo');
		expect(out.map((i) => i.json)).toEqual([{ echoed: { index: 0 } }, { echoed: { index: 1 } }]);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(run.outputOf(START_NODE_NAME)).toHaveLength(2);
	});

	it('stores binaries in the filesystem store: .data is not the bytes, getBinaryDataBuffer is', async () => {
		const bytes = Buffer.from([137, 80, 78, 71, 1, 2, 3, 4, 5]);
		const run = await runWorkflow({
			nodes: [echo],
			nodeTypes: { 'test.echo': echoNode },
			credentials: creds(),
			items: [binaryItem(bytes)],
		});
		expect(run.status).toBe('success');
		const sent = JSON.parse(received[0].body) as IDataObject;
		expect(sent.bytes).toBe(bytes.toString('base64'));
		expect(sent.storedData).not.toBe(bytes.toString('base64'));
		expect(sent.storedData).toMatch(/^filesystem/);
		const start = run.outputOf(START_NODE_NAME)[0];
		expect(start.binary?.data.id).toMatch(/^filesystem/);
		expect(readdirSync(run.binaryDataPath).length).toBeGreaterThan(0);
	});

	it('fails the execution with the node error when onError is not set', async () => {
		const run = await runWorkflow({
			nodes: [echo],
			nodeTypes: { 'test.echo': echoNode },
			credentials: creds(),
			items: [{ json: { status: 500 } }],
		});
		expect(run.status).toBe('error');
		expect(run.error?.message).toContain('answered 500');
		expect(run.errorOf('Echo')?.message).toContain('failed with 500');
		expect(dumpRun(run)).not.toContain(TOKEN);
	});

	it('gives the node a real continueOnFail with onError continueRegularOutput', async () => {
		const run = await runWorkflow({
			nodes: [{ ...echo, onError: 'continueRegularOutput' }],
			nodeTypes: { 'test.echo': echoNode },
			credentials: creds(),
			items: [{ json: {} }, { json: { throw: true } }, { json: {} }],
		});
		expect(run.status).toBe('success');
		expect(run.outputOf('Echo').map((i) => i.json.error ?? 'ok')).toEqual(['ok', 'asked to fail', 'ok']);
	});

	it('routes error items to the error output with onError continueErrorOutput', async () => {
		const run = await runWorkflow({
			nodes: [{ ...echo, onError: 'continueErrorOutput' }],
			nodeTypes: { 'test.echo': echoNode },
			credentials: creds(),
			items: [{ json: {} }, { json: { throw: true } }, { json: {} }],
		});
		expect(run.status).toBe('success');
		// The engine appends the error output after the node's own two outputs.
		const outputs = run.outputsOf('Echo');
		expect(outputs).toHaveLength(3);
		expect(outputs[0].map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(outputs[2].map((i) => [i.json.error, i.pairedItem])).toEqual([
			['asked to fail', { item: 1 }],
		]);
	});
});
