/**
 * The trigger through n8n-core's real WebhookContext and real HTTP, where n8n's part after webhook()
 * goes wrong or late: n8n creates the execution only after webhook() returned and answers the sender
 * after that (or with an error when it could not). A delivery webhook() returned but n8n did not start
 * must not turn the sender's retry into a `duplicate` (the completion would be lost), and a retry
 * arriving while n8n has not answered yet waits for n8n's outcome.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeType, IWebhookResponseData } from 'n8n-workflow';

import { prepareWorkflow, triggerNode } from '@test/helpers/engine';
import { imageResult } from '@test/helpers/callbackBodies';
import { webhookContext } from '@test/helpers/engine/webhookContext';
import { postCallback, TEST_CALLBACK_SECRET } from '@test/helpers/webhook-server';
import { CREDENTIAL_TYPE } from '@dev/n8n/package';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const WEBHOOK_ID = '5d1e7a3c-2b4f-4c6d-8e9f-0a1b2c3d4e5f';
const NAME = 'Completion Received';

/** What n8n does once webhook() returned workflowData: start it (200) or fail to (500), now or later. */
type AfterWebhook = (result: IWebhookResponseData) => Promise<'started' | 'failed'>;

interface FakeN8n {
	url: string;
	executions: IDataObject[];
	webhookCalls: number;
	after: AfterWebhook;
	stop(): Promise<void>;
}

const started: AfterWebhook = async () => 'started';

async function fakeN8n(): Promise<FakeN8n> {
	let baseUrl = '';
	const state: FakeN8n = {
		url: '',
		executions: [],
		webhookCalls: 0,
		after: started,
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const request = req as IncomingMessage & { body?: unknown; query: IDataObject; params: IDataObject; rawBody: Buffer };
		request.rawBody = Buffer.concat(chunks);
		request.body = JSON.parse(request.rawBody.toString('utf-8'));
		request.query = { token: TEST_CALLBACK_SECRET };
		request.params = {};

		const { workflow, core, additionalData } = await prepareWorkflow({
			nodes: [triggerNode({ fetchFullResult: false }, { name: NAME, webhookId: WEBHOOK_ID, withCredentials: true })],
			credentials: { [CREDENTIAL_TYPE]: { baseUrl: 'http://127.0.0.1:9', accessToken: 'tok-lost-1', callbackSecret: TEST_CALLBACK_SECRET } },
			webhookBaseUrl: baseUrl,
			mode: 'webhook',
		});
		const node = workflow.getNode(NAME)!;
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
		const description = nodeType.description.webhooks![0];
		const context = webhookContext({ core, workflow, node, description, additionalData, req, res, mode: 'webhook', runExecutionData: null, webhookId: WEBHOOK_ID });
		state.webhookCalls++;
		const result = await nodeType.webhook!.call(context);
		if (result.workflowData === undefined) {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(result.webhookResponse));
			return;
		}
		// Like n8n's executeWebhook: the onReceived answer goes out after the execution was created,
		// also to a sender that is gone; an error creating it is answered 500.
		const outcome = await state.after(result);
		if (outcome === 'started') state.executions.push(result.workflowData[0][0].json);
		res.writeHead(outcome === 'started' ? 200 : 500, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify(outcome === 'started' ? result.webhookResponse : { code: 0, message: 'There was a problem executing the workflow' }));
	}

	const server: Server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500).end(String(error));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	state.url = `${baseUrl}/webhook/${WEBHOOK_ID}/callback`;
	return state;
}

function completion() {
	return { event: 'moderation.completed', data: imageResult(randomUUID()) as IDataObject & { id: string } };
}

let n8n: FakeN8n;
beforeEach(async () => {
	resetProcessState();
	n8n = await fakeN8n();
});
afterEach(async () => await n8n.stop());

test('n8n fails to create the execution after webhook() returned: the retry starts it, once', async () => {
	const body = completion();
	n8n.after = async () => 'failed';
	const first = await postCallback(n8n.url, body);
	expect(first.status).toBe(500);
	expect(n8n.executions).toHaveLength(0);

	n8n.after = started;
	const retry = await postCallback(n8n.url, body);
	expect(retry).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: body.data.id } });
	expect(n8n.executions).toHaveLength(1);

	const again = await postCallback(n8n.url, body);
	expect(again.body).toMatchObject({ duplicate: true });
	expect(n8n.executions).toHaveLength(1);
});

test('the sender gives up before n8n answers, n8n starts it later: a retry meanwhile waits, then is a duplicate', async () => {
	const body = completion();
	let startFirst: () => void = () => {};
	n8n.after = async () => {
		await new Promise<void>((resolve) => (startFirst = resolve));
		return 'started';
	};
	const gone = fetch(n8n.url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(300),
	}).catch((error: Error) => error.name);
	expect(await gone).toBe('TimeoutError');
	expect(n8n.webhookCalls).toBe(1);

	n8n.after = started;
	const retry = postCallback(n8n.url, body);
	let retryAnswered = false;
	void retry.then(() => (retryAnswered = true));
	await new Promise((resolve) => setTimeout(resolve, 200));
	// n8n has not answered the first yet: the retry's outcome depends on it, so it waits.
	expect(retryAnswered).toBe(false);
	expect(n8n.executions).toHaveLength(0);

	startFirst();
	await expect(retry).resolves.toEqual({
		status: 200,
		body: { received: true, event: 'moderation.completed', id: body.data.id, duplicate: true },
	});
	expect(n8n.executions).toHaveLength(1);
});
