/** Shared helpers of the action-node tests: the node's output, its error, leak checks, queue items. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { dumpRun, type WorkflowRun } from './engine';
import { useMock } from './mock';

export { SECRET_TOKEN, UNKNOWN_ID, useMock } from './mock';

export const NODE_NAME = 'Content Moderation';

type MockHandle = ReturnType<typeof useMock>;

/** The node's output items (first output). */
export function output(run: WorkflowRun): INodeExecutionData[] {
	return run.outputOf(NODE_NAME);
}

/** Asserts the token is nowhere in the run: outputs, errors, descriptions, stacks. */
export function expectNoToken(run: WorkflowRun, token: string): void {
	expect(token.length).toBeGreaterThan(3);
	expect(dumpRun(run)).not.toContain(token);
}

/** The node error the run stopped with. */
export function nodeError(run: WorkflowRun) {
	const error = run.errorOf(NODE_NAME) as
		| (Error & { description?: string; httpCode?: string; context?: { itemIndex?: number } })
		| undefined;
	if (!error) throw new Error(`expected the node to fail; status ${run.status}`);
	return error;
}

/** Waits (bounded) until the mock has processed everything queued. */
export async function whenProcessed(mock: MockHandle): Promise<void> {
	await mock.service.whenIdle(30_000);
}

/** Queue > Add Item of a text through the node; its output item. */
export async function addTextItem(mock: MockHandle, queueId: string, text: string): Promise<IDataObject> {
	const run = await mock.run({ resource: 'queue', operation: 'addItem', queueId, contentType: 'text', text });
	expect(run.status).toBe('success');
	return output(run)[0].json;
}

/** A deferred image moderation the mock has finished, its requests then forgotten; its id. */
export async function deferredImageId(mock: MockHandle, imageUrl: string): Promise<string> {
	const res = await fetch(`${mock.service.url}/image`, {
		method: 'POST',
		headers: { authorization: `Bearer ${mock.service.token}`, 'content-type': 'application/json' },
		body: JSON.stringify({ image: imageUrl, options: { defer: true } }),
	});
	const { id } = (await res.json()) as { id: string };
	await mock.service.whenIdle(5_000);
	mock.service.reset();
	return id;
}
