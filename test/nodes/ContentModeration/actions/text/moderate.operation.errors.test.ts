/** Text > Moderate's error branches, against a scripted service: answers the mock does not give. */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SAFE_TEXT } from '@dev/mock/fixtures';
import { moderationNode, runWorkflow, type NodeOptions, type WorkflowRun } from '@test/helpers/engine';
import { expectNoToken, nodeError, output, SECRET_TOKEN } from '@test/helpers/nodeRun';
import { startScriptedServer, type ScriptedReply, type ScriptedRequest, type ScriptedServer } from '@test/helpers/scripted-server';

const ITEM_ID = 'item-123';
const TEXT_ID = 'text-456';
const ITEM_PATH = `/queues/chat/items/${ITEM_ID}`;
const NOT_FOUND: ScriptedReply = { status: 404, body: { error: { status: 404, code: 'not_found', message: 'no' } } };
const RESULT = { id: TEXT_ID, isSafe: true, confidence: 90, content: SAFE_TEXT, filteredContent: SAFE_TEXT };

const parameters: INodeParameters = { resource: 'text', operation: 'moderate', text: SAFE_TEXT, queueId: 'chat', pollInterval: 0.1, waitTimeout: 1 };

let server: ScriptedServer | undefined;
afterEach(async () => {
	await server?.stop();
	server = undefined;
});

/** The POST answered with `posted`, every read by `read` (GETs counted from 0). */
async function serve(posted: ScriptedReply, read: (request: ScriptedRequest, getIndex: number) => ScriptedReply): Promise<ScriptedServer> {
	let gets = 0;
	server = await startScriptedServer((request) => (request.method === 'POST' ? posted : read(request, gets++)));
	return server;
}

const ADDED: ScriptedReply = { status: 202, body: { id: ITEM_ID, status: 'processing' } };

async function run(items?: INodeExecutionData[], options: NodeOptions = {}): Promise<WorkflowRun> {
	return await runWorkflow({
		nodes: [moderationNode(parameters, options)],
		credentials: { contentModerationApi: { baseUrl: server?.url ?? '', accessToken: SECRET_TOKEN } },
		items,
	});
}

const requestLines = () => (server?.requests ?? []).map((r) => `${r.method} ${r.path}`);

/** The run failed the item with a NodeOperationError; the same run under continueOnFail gives one paired error item; one POST each. */
async function expectItemError(message: string, description: string): Promise<void> {
	const failed = await run();
	const error = nodeError(failed);
	expect(error.name).toBe('NodeOperationError');
	expect(error.context?.itemIndex).toBe(0);
	expect(error.message).toContain(message);
	expect(error.description).toContain(description);
	expectNoToken(failed, SECRET_TOKEN);
	expect(requestLines().filter((line) => line.startsWith('POST'))).toEqual(['POST /queues/chat']);

	server?.requests.splice(0);
	const goOn = await run([{ json: { n: 1 } }], { onError: 'continueRegularOutput' });
	expect(goOn.status).toBe('success');
	const items = output(goOn);
	expect(items).toHaveLength(1);
	expect(items[0].pairedItem).toEqual({ item: 0 });
	expect(items[0].json.error).toContain(message);
	expect(items[0].json.details).toMatchObject({ description: expect.stringContaining(description) });
	expect(requestLines().filter((line) => line.startsWith('POST'))).toEqual(['POST /queues/chat']);
}

describe('Text > Moderate: odd answers of the service', () => {
	it('fails the item when the POST is answered without an item id, reading nothing', async () => {
		await serve({ status: 202, body: { status: 'processing' } }, () => ({ status: 500 }));
		await expectItemError('to queue "chat" without a queue item ID', 'submitted once and is not sent again');
		expect(requestLines()).toEqual(['POST /queues/chat']);
	});

	it('fails the item at once when its moderation holds neither isSafe nor an id', async () => {
		await serve(ADDED, () => ({ status: 200, body: { id: ITEM_ID, status: 'pending', moderation: { score: 3 } } }));
		await expectItemError(`queue item "${ITEM_ID}" has a moderation with neither a verdict (isSafe) nor an ID`, 'Queue > Get Item (Queue ID "chat", Item ID "item-123")');
		expect(requestLines()).toEqual(['POST /queues/chat', `GET ${ITEM_PATH}`]);
	});
});

describe('Text > Moderate: a 404 while polling', () => {
	it('counts as not stored yet, for the queue item and for GET /text/{id}', async () => {
		await serve(ADDED, (request, index) => {
			if (index === 0) return NOT_FOUND;
			if (request.path === ITEM_PATH) return { status: 200, body: { id: ITEM_ID, status: 'pending', moderation: { id: TEXT_ID } } };
			return index < 3 ? NOT_FOUND : { status: 200, body: RESULT };
		});
		const done = await run();
		expect(done.status).toBe('success');
		expect(output(done)[0].json).toEqual({ ...RESULT, queueId: 'chat', itemId: ITEM_ID });
		expect(requestLines()).toEqual(['POST /queues/chat', `GET ${ITEM_PATH}`, `GET ${ITEM_PATH}`, `GET /text/${TEXT_ID}`, `GET /text/${TEXT_ID}`]);
	});

	it.each([
		['the queue item', () => NOT_FOUND, 'for the queue item'],
		['the text moderation', (request: ScriptedRequest) =>
			request.path === ITEM_PATH ? { status: 200, body: { id: ITEM_ID, moderation: { id: TEXT_ID } } } : NOT_FOUND,
		`for the text moderation "${TEXT_ID}"`],
	])('on %s until the wait timeout fails the item naming the 404 and the queue item, polling no longer', async (_case, read, what) => {
		await serve(ADDED, read);
		const started = Date.now();
		await expectItemError(`404 (not found) ${what} until the wait timeout (1 seconds): queue item "${ITEM_ID}" in queue "chat"`, 'Queue > Get Item (Queue ID "chat", Item ID "item-123")');
		expect(Date.now() - started).toBeLessThan(5_000);
		// 1 s at 0.1 s: about ten reads, then it stops.
		expect(requestLines().length).toBeLessThan(15);
	});
});
