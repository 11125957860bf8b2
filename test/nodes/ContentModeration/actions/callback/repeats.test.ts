/**
 * Callback > Receive recognises repeated deliveries (repeats.ts) through n8n-core's engine: in a production
 * execution a completion passed on once in this process passes nothing on again (or passes on marked
 * `duplicate: true` with the option); manual executions always pass on.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { imageResult, textResult } from '@test/helpers/callbackBodies';
import { output, SECRET_TOKEN } from '@test/helpers/nodeRun';

import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const SECRET = 'cb-secret/repeats-2d7e';

const webhookItem = (body: unknown) => ({
	json: { headers: { 'content-type': 'application/json' }, params: {}, query: { token: SECRET }, body } as IDataObject,
});
const completion = (id = randomUUID()) => ({ event: 'moderation.completed', data: imageResult(id) as IDataObject & { id: string } });

async function run(items: Array<{ json: IDataObject }>, mode: 'webhook' | 'trigger' | 'manual', parameters: INodeParameters = {}, name?: string) {
	return await runWorkflow({
		nodes: [moderationNode({ resource: 'callback', operation: 'receive', ...parameters }, { name })],
		credentials: { contentModerationApi: { baseUrl: 'http://127.0.0.1:9', accessToken: SECRET_TOKEN, callbackSecret: SECRET } },
		items,
		mode,
	});
}

async function receive(bodies: unknown[], mode: 'webhook' | 'trigger' | 'manual', parameters: INodeParameters = {}, name?: string) {
	const done = await run(bodies.map(webhookItem), mode, parameters, name);
	expect(done.status).toBe('success');
	return name === undefined ? output(done) : done.outputOf(name);
}

beforeEach(() => resetProcessState());

describe('Callback > Receive and repeated deliveries', () => {
	test('production: a completion already passed on passes nothing on, in a later execution or the same one', async () => {
		const body = completion();
		expect(await receive([body], 'webhook')).toHaveLength(1);
		expect(await receive([body], 'webhook')).toEqual([]);
		expect(await receive([body], 'trigger')).toEqual([]);
		const other = completion();
		const items = await receive([other, other, completion()], 'webhook');
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(items.every((i) => i.json.duplicate === undefined)).toBe(true);
	});

	test('executions at once: each completion passed on once', async () => {
		const bodies = Array.from({ length: 5 }, () => completion());
		const runs = await Promise.all(Array.from({ length: 4 }, async () => await receive(bodies, 'webhook')));
		const ids = runs.flat().map((i) => i.json.id);
		expect(ids.sort()).toEqual(bodies.map((b) => b.data.id).sort());
	});

	test('the option passes a repeat on, marked duplicate: true', async () => {
		const body = completion();
		await receive([body], 'webhook');
		const [item] = await receive([body], 'webhook', { passOnRepeats: true });
		expect(item.json).toMatchObject({ id: body.data.id, event: 'moderation.completed', duplicate: true });
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('manual executions always pass on, and do not count as passed on', async () => {
		const body = completion();
		expect(await receive([body], 'manual')).toHaveLength(1);
		expect(await receive([body], 'manual')).toHaveLength(1);
		expect(await receive([body], 'webhook')).toHaveLength(1);
	});

	test('review decisions: a changed decision is a new completion; no id: always passed on', async () => {
		const id = randomUUID();
		const decision = (status: string, accepted: boolean) => ({
			event: 'queue.review.completed',
			data: { id, status, accepted, type: 'text', content: 'hi' },
		});
		expect(await receive([decision('accepted', true), decision('accepted', true)], 'webhook')).toHaveLength(1);
		expect(await receive([decision('rejected', false)], 'webhook')).toHaveLength(1);
		const { id: _none, ...withoutId } = imageResult();
		const noId = { event: 'moderation.completed', data: withoutId };
		expect(await receive([noId, noId], 'webhook')).toHaveLength(2);
	});

	test('a failed item passes nothing on and does not count: its next delivery passes on', async () => {
		const id = randomUUID();
		// Only an id: Receive reads the result, and the service cannot be reached. Max Retries 0: the read fails at
		// once, not after seconds of backoff against a port nobody listens on (failing is all this case needs).
		const failing = await runWorkflow({
			nodes: [moderationNode({ resource: 'callback', operation: 'receive', options: { maxRetries: 0 } }, { onError: 'continueRegularOutput' })],
			credentials: { contentModerationApi: { baseUrl: 'http://127.0.0.1:9', accessToken: SECRET_TOKEN, callbackSecret: SECRET } },
			items: [webhookItem({ event: 'moderation.completed', data: { id } })],
			mode: 'webhook',
		});
		expect(output(failing)[0].json.error).toBeDefined();
		expect(await receive([completion(id)], 'webhook')).toHaveLength(1);
	});
});

describe('Callback > Receive loses no completion', () => {
	test('a run that fails at another item (On Error: stop) passes nothing on: the completion passes on when delivered again', async () => {
		const x = completion();
		const wrongToken = { json: { ...webhookItem(completion()).json, query: { token: 'wrong' } } };
		const failed = await run([webhookItem(x), wrongToken], 'webhook');
		expect(failed.status).toBe('error');
		const again = await receive([x], 'webhook');
		expect(again.map((item) => item.json.id)).toEqual([x.data.id]);
	});

	test('one result id is one completion, whatever kind its data shows', async () => {
		const id = randomUUID();
		const text = { event: 'moderation.completed', data: textResult(id) };
		expect(await receive([text], 'webhook')).toHaveLength(1);
		expect(await receive([completion(id)], 'webhook')).toEqual([]);
		expect(await receive([completion(randomUUID())], 'webhook')).toHaveLength(1);
	});

	test('review decisions whose status is an object are told apart', async () => {
		const id = randomUUID();
		const decision = (status: IDataObject) => ({ event: 'queue.review.completed', data: { id, status, accepted: true } });
		expect(await receive([decision({ code: 'accepted' })], 'webhook')).toHaveLength(1);
		expect(await receive([decision({ code: 'rejected' })], 'webhook')).toHaveLength(1);
		expect(await receive([decision({ code: 'rejected' })], 'webhook')).toEqual([]);
	});

	test('renaming the node keeps what it passed on', async () => {
		const body = completion();
		expect(await receive([body], 'webhook', {}, 'Receive')).toHaveLength(1);
		expect(await receive([body], 'webhook', {}, 'Receive (renamed)')).toEqual([]);
	});
});
