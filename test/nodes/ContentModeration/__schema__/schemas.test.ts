/**
 * The output schemas shipped in __schema__/ (the editor's preview of a node's output before it runs) must
 * describe what the nodes really output: every operation runs against the mock service and its output is
 * checked against its schema, property by property and type by type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { resolveOutputSchemaPath } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SAFE_IMAGE_URL, SAFE_TEXT } from '@dev/mock/fixtures';
import { ContentModeration } from '@package/nodes/ContentModeration/ContentModeration.node';
import { resources } from '@package/nodes/ContentModeration/actions/resources';
import { ContentModerationTrigger } from '@package/nodes/ContentModeration/ContentModerationTrigger.node';
import { startTriggerServer, postCallback, TEST_CALLBACK_SECRET } from '@test/helpers/webhook-server';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';

interface Schema {
	type: string;
	properties?: Record<string, Schema>;
	items?: Schema;
}

const ROOT = path.join(__dirname, '..', '..', '..', '..', 'packages', 'n8n-nodes-content-moderation', 'nodes');

const ACTION_VERSION = new ContentModeration().description.version as number;
const TRIGGER_VERSION = new ContentModerationTrigger().description.version as number;

/**
 * The schema n8n serves the editor for a node at its declared version: found with n8n's own resolver
 * (n8n-core `resolveOutputSchemaPath`, what n8n's `/schemas/<node>/<version>/<resource>/<operation>.json`
 * route calls), in the node's folder.
 */
function schemaOf(nodeDir: string, version: number, resource?: string, operation?: string): Schema {
	const file = resolveOutputSchemaPath({ nodeDir: path.join(ROOT, nodeDir), version, resource, operation });
	if (file === undefined) throw new Error(`n8n resolves no schema path for ${nodeDir} ${version} ${resource}/${operation}`);
	return JSON.parse(readFileSync(file, 'utf8')) as Schema;
}

const actionSchema = (resource: string, operation: string) => schemaOf('ContentModeration', ACTION_VERSION, resource, operation);

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
		expect(mismatches(moderated, actionSchema('image', 'moderate'))).toEqual([]);
		const deferred = await runOne({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, mode: 'deferred' });
		await mock.service.whenIdle(10_000);
		const read = await runOne({ resource: 'image', operation: 'get', imageId: String(deferred.id) });
		expect(mismatches(read, actionSchema('image', 'get'))).toEqual([]);
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
		expect(mismatches(output(run)[0].json, actionSchema('callback', 'receive'))).toEqual([]);
	});

	it('queue/addItem, queue/getItem, text/get and text/delete', async () => {
		const added = await runOne({ resource: 'queue', operation: 'addItem', queueId: 'schemas', contentType: 'text', text: SAFE_TEXT });
		expect(mismatches(added, actionSchema('queue', 'addItem'))).toEqual([]);

		const item = await processedTextItem();
		expect(mismatches(item, actionSchema('queue', 'getItem'))).toEqual([]);

		const textId = String((item.moderation as IDataObject).id);
		const text = await runOne({ resource: 'text', operation: 'get', textId });
		expect(mismatches(text, actionSchema('text', 'get'))).toEqual([]);
		const deleted = await runOne({ resource: 'text', operation: 'delete', textId });
		expect(mismatches(deleted, actionSchema('text', 'delete'))).toEqual([]);
	});

	it('text/moderate (POST /text, Immediate): the text result, no queue ids', async () => {
		const moderated = await runOne({ resource: 'text', operation: 'moderate', text: SAFE_TEXT });
		expect(mismatches(moderated, actionSchema('text', 'moderate'))).toEqual([]);
		expect(moderated).not.toHaveProperty('queueId');
	});

	it('the trigger', async () => {
		// Deferred: the immediate image result has no id; the callback (here only the id) does.
		const { id } = await runOne({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, mode: 'deferred' });
		await mock.service.whenIdle(10_000);
		const server = await startTriggerServer({
			parameters: { events: 'all' },
			credentials: { baseUrl: mock.service.url, accessToken: mock.service.token, callbackSecret: TEST_CALLBACK_SECRET },
			token: TEST_CALLBACK_SECRET,
		});
		try {
			await postCallback(server.webhookUrl, { event: 'moderation.completed', data: { id } });
			await server.waitForExecutions(1, 10_000);
			const item = server.executions[0][0].json;
			expect(mismatches(item, schemaOf('ContentModeration', TRIGGER_VERSION))).toEqual([]);
		} finally {
			await server.stop();
		}
	});
});

describe("the nodes' one version has its schemas (the editor asks for __schema__/v<version>.0.0)", () => {
	it("both nodes at version 2, sharing their folder's __schema__: the action's per operation, the trigger's one file", () => {
		expect(ACTION_VERSION).toBe(2);
		expect(TRIGGER_VERSION).toBe(2);
		expect(readdirSync(path.join(ROOT, 'ContentModeration', '__schema__')).sort()).toEqual(['v2.0.0', 'v2.0.0.json']);
	});

	it('one schema per operation of the action node, each where n8n looks for it', () => {
		const dir = path.join(ROOT, 'ContentModeration', '__schema__', `v${ACTION_VERSION}.0.0`);
		const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
			.filter((f) => f.endsWith('.json'))
			.map((f) => f.replace(/\.json$/, '').split(path.sep).join('/'))
			.sort();
		const operations = Object.entries(resources).flatMap(([resource, ops]) => Object.keys(ops).map((o) => `${resource}/${o}`));
		expect(files).toEqual(operations.sort());
		for (const operation of operations) {
			const [resource, name] = operation.split('/');
			expect(resolveOutputSchemaPath({ nodeDir: path.join(ROOT, 'ContentModeration'), version: ACTION_VERSION, resource, operation: name })).toBe(
				path.join(dir, resource, `${name}.json`),
			);
		}
	});
});
