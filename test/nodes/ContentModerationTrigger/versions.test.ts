/**
 * The trigger's node versions: version 2 has no Callback Token field (a secret in plain text in the
 * workflow); version 1, as saved workflows hold it, keeps the field and its check. Display rules are read
 * with n8n-workflow's own getNodeParameters; the webhook runs through n8n-core's real WebhookContext.
 */
import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { startMockService, type MockService } from '@dev/mock/server';
import { ContentModerationTrigger } from '@package/nodes/ContentModerationTrigger/ContentModerationTrigger.node';
import { postCallback, startTriggerServer, type TriggerServer } from '@test/helpers/webhook-server';

const { description } = new ContentModerationTrigger();
const FIELD_TOKEN = 'field-token-5e21';
const SECRET = 'cred-cb-secret-44b0';

/** The parameters n8n runs a trigger of `typeVersion` with: saved values of displayed fields, defaults. */
function shown(parameters: INodeParameters, typeVersion: number): INodeParameters {
	const node: INode = { id: '1', name: 't', type: description.name, typeVersion, position: [0, 0], parameters };
	return NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description)!;
}

test('version 3 is the newest: what a trigger added from the nodes panel gets', () => {
	expect(description.version).toEqual([1, 2, 3]);
	expect(description.defaultVersion).toBe(3);
});

test('version 3 adds the choice of events beside the verdict filter, and a notice about the account webhook', () => {
	expect(Object.keys(shown({}, 3)).sort()).toEqual(['burstNotice', 'eventTypes', 'events', 'fetchFullResult', 'notice', 'options']);
	expect(shown({}, 3)).toMatchObject({ eventTypes: 'both', events: 'all' });
	// The verdict filter is about results: hidden when only review decisions start the workflow.
	expect(shown({ eventTypes: 'reviews' }, 3)).not.toHaveProperty('events');
	expect(shown({}, 2)).not.toHaveProperty('eventTypes');
	const notices = description.properties.filter((p) => p.name === 'notice');
	const v3 = notices.find((p) => JSON.stringify(p.displayOptions).includes('gte'));
	expect(v3?.displayName).toMatch(/account webhook/);
	expect(v3?.displayName).toMatch(/\?token=/);
	expect(v3?.displayName).toMatch(/Callback Secret/);
});

test('the Callback Token field is shown on version 1 only', () => {
	expect(shown({}, 1)).toHaveProperty('callbackToken', '');
	expect(shown({ callbackToken: FIELD_TOKEN }, 1)).toHaveProperty('callbackToken', FIELD_TOKEN);
	expect(shown({}, 2)).not.toHaveProperty('callbackToken');
	// A token left in a version 2 node's JSON (edited by hand) is not a parameter n8n runs it with.
	expect(shown({ callbackToken: FIELD_TOKEN }, 2)).not.toHaveProperty('callbackToken');
	// Everything else is the same in both versions.
	expect(Object.keys(shown({}, 2)).sort()).toEqual(['burstNotice', 'events', 'fetchFullResult', 'notice', 'options']);
});

describe('callbacks', () => {
	let mock: MockService;
	const servers: TriggerServer[] = [];
	let result: Record<string, unknown>;

	beforeAll(async () => {
		mock = await startMockService({ processMs: 20 });
		const response = await fetch(`${mock.url}/image`, {
			method: 'POST',
			headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ image: SAFE_IMAGE_URL }),
		});
		result = (await response.json()) as Record<string, unknown>;
	});

	afterAll(async () => {
		await Promise.all(servers.map(async (server) => await server.stop()));
		await mock.stop();
	});

	async function trigger(typeVersion: number): Promise<TriggerServer> {
		const server = await startTriggerServer({
			parameters: { events: 'all', callbackToken: FIELD_TOKEN },
			credentials: { baseUrl: mock.url, accessToken: mock.token, callbackSecret: SECRET },
			typeVersion,
		});
		servers.push(server);
		return server;
	}

	async function statuses(server: TriggerServer): Promise<number[]> {
		const field = await postCallback(server.webhookUrl, result, { query: { token: FIELD_TOKEN } });
		const secret = await postCallback(server.webhookUrl, result, { query: { token: SECRET } });
		const none = await postCallback(server.webhookUrl, result);
		return [field.status, secret.status, none.status];
	}

	test("version 1 (a saved workflow): its Callback Token and the credential's secret open it", async () => {
		const server = await trigger(1);
		expect(await statuses(server)).toEqual([200, 200, 401]);
		expect(server.executions).toHaveLength(2);
	});

	test("version 2: only the credential's Callback Secret opens it, whatever the node's JSON holds", async () => {
		const server = await trigger(2);
		expect(await statuses(server)).toEqual([401, 200, 401]);
		expect(server.executions).toHaveLength(1);
	});
});
