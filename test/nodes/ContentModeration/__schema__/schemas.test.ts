/**
 * The output schemas shipped in __schema__/ (the editor's preview of a node's output before it runs) must
 * describe what the nodes really output: every operation runs against the mock service and its output is
 * checked against its schema, property by property and type by type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SAFE_IMAGE_URL, SAFE_TEXT } from '@dev/mock/fixtures';
import { ContentModeration } from '@package/nodes/ContentModeration/ContentModeration.node';
import { resources } from '@package/nodes/ContentModeration/actions/resources';
import { ContentModerationTrigger } from '@package/nodes/ContentModeration/ContentModerationTrigger.node';
import { startTriggerServer, postCallback } from '@test/helpers/webhook-server';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';

interface Schema {
	type: string;
	properties?: Record<string, Schema>;
	items?: Schema;
}

const ROOT = path.join(__dirname, '..', '..', '..', '..', 'packages', 'n8n-nodes-content-moderation', 'nodes');

function schemaOf(file: string): Schema {
	return JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Schema;
}

/** Mismatches between a value and a schema: a property missing, or of another JSON type. */
function mismatches(value: unknown, schema: Schema, at = '$'): string[] {
	const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
	if (actual !== schema.type) return [`${at}: ${actual}, schema says ${schema.type}`];
	if (schema.type === 'object') {
		const record = value as Record<string, unknown>;
		return Object.entries(schema.properties ?? {}).flatMap(([key, child]) =>
			key in record ? mismatches(record[key], child, `${at}.${key}`) : [`${at}.${key}: missing`],
		);
	}
	if (schema.type === 'array' && schema.items) {
		return (value as unknown[]).flatMap((item, i) => mismatches(item, schema.items as Schema, `${at}[${i}]`));
	}
	return [];
}

const mock = useMock({ processMs: 20 });

async function runOne(parameters: INodeParameters): Promise<IDataObject> {
	const run = await mock.run(parameters);
	expect(run.error).toBeUndefined();
	return output(run)[0].json;
}

async function processedTextItem(): Promise<IDataObject> {
	const added = await runOne({ resource: 'queue', operation: 'addItem', queueId: 'schemas', contentType: 'text', text: SAFE_TEXT });
	await mock.service.whenIdle(10_000);
	return await runOne({ resource: 'queue', operation: 'getItem', queueId: 'schemas', itemId: String(added.id) });
}

describe('output schemas match real outputs', () => {
	it('the validator catches a wrong type and a missing property (so the checks below can fail)', () => {
		const schema: Schema = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'string' } } };
		expect(mismatches({ a: '1' }, schema)).toEqual(['$.a: string, schema says number', '$.b: missing']);
	});

	it('image/moderate and image/get', async () => {
		const moderated = await runOne({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL });
		expect(mismatches(moderated, schemaOf('ContentModeration/__schema__/v1.0.0/image/moderate.json'))).toEqual([]);
		const deferred = await runOne({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, mode: 'deferred' });
		await mock.service.whenIdle(10_000);
		const read = await runOne({ resource: 'image', operation: 'get', imageId: String(deferred.id) });
		expect(mismatches(read, schemaOf('ContentModeration/__schema__/v1.0.0/image/get.json'))).toEqual([]);
	});

	it("callback/receive: an image callback (only its id) received by n8n's Webhook node, completed", async () => {
		const deferred = await runOne({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, mode: 'deferred' });
		await mock.service.whenIdle(10_000);
		const body = { event: 'moderation.completed', data: { id: String(deferred.id) } };
		const run = await runWorkflow({
			nodes: [moderationNode({ resource: 'callback', operation: 'receive' })],
			credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: SECRET_TOKEN } },
			items: [{ json: { headers: { 'content-type': 'application/json' }, params: {}, query: {}, body } }],
		});
		expect(run.error).toBeUndefined();
		expect(mismatches(output(run)[0].json, schemaOf('ContentModeration/__schema__/v1.0.0/callback/receive.json'))).toEqual([]);
	});

	it('queue/addItem, queue/getItem, text/get and text/delete', async () => {
		const added = await runOne({ resource: 'queue', operation: 'addItem', queueId: 'schemas', contentType: 'text', text: SAFE_TEXT });
		expect(mismatches(added, schemaOf('ContentModeration/__schema__/v1.0.0/queue/addItem.json'))).toEqual([]);

		const item = await processedTextItem();
		expect(mismatches(item, schemaOf('ContentModeration/__schema__/v1.0.0/queue/getItem.json'))).toEqual([]);

		const textId = String((item.moderation as IDataObject).id);
		const text = await runOne({ resource: 'text', operation: 'get', textId });
		expect(mismatches(text, schemaOf('ContentModeration/__schema__/v1.0.0/text/get.json'))).toEqual([]);
		const deleted = await runOne({ resource: 'text', operation: 'delete', textId });
		expect(mismatches(deleted, schemaOf('ContentModeration/__schema__/v1.0.0/text/delete.json'))).toEqual([]);
	});

	it('text/moderate (POST /text, Immediate): the text result, no queue ids', async () => {
		const moderated = await runOne({ resource: 'text', operation: 'moderate', text: SAFE_TEXT });
		expect(mismatches(moderated, schemaOf('ContentModeration/__schema__/v1.0.0/text/moderate.json'))).toEqual([]);
		expect(moderated).not.toHaveProperty('queueId');
	});

	it('the trigger', async () => {
		// Deferred: the immediate image result has no id; the callback (here only the id) does.
		const { id } = await runOne({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, mode: 'deferred' });
		await mock.service.whenIdle(10_000);
		const server = await startTriggerServer({
			parameters: { events: 'all' },
			credentials: { baseUrl: mock.service.url, accessToken: mock.service.token },
		});
		try {
			await postCallback(server.webhookUrl, { event: 'moderation.completed', data: { id } });
			await server.waitForExecutions(1, 10_000);
			const item = server.executions[0][0].json;
			expect(mismatches(item, schemaOf('ContentModeration/__schema__/v1.0.0.json'))).toEqual([]);
		} finally {
			await server.stop();
		}
	});
});

describe("the nodes' one version has its schemas (the editor asks for __schema__/v<version>.0.0)", () => {
	it('both nodes at version 1, sharing their folder\'s __schema__: the action\'s per operation, the trigger\'s one file', () => {
		expect(new ContentModeration().description.version).toBe(1);
		expect(new ContentModerationTrigger().description.version).toBe(1);
		expect(readdirSync(path.join(ROOT, 'ContentModeration', '__schema__')).sort()).toEqual(['v1.0.0', 'v1.0.0.json']);
	});

	it('one schema per operation of the action node', () => {
		const files = readdirSync(path.join(ROOT, 'ContentModeration/__schema__/v1.0.0'), { recursive: true, encoding: 'utf8' })
			.filter((f) => f.endsWith('.json'))
			.map((f) => f.replace(/\.json$/, '').split(path.sep).join('/'))
			.sort();
		const operations = Object.entries(resources).flatMap(([resource, ops]) => Object.keys(ops).map((o) => `${resource}/${o}`));
		expect(files).toEqual(operations.sort());
	});
});
