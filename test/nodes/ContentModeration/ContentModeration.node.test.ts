/**
 * What the editor and the AI Agent take from the action node's description, read with n8n-workflow's
 * own functions: the node name n8n gives a node added from the nodes panel (the operation's `action`) and
 * what the model is told when the node is a tool. Iterates over every operation, also ones added later.
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

import { ContentModerationApi } from '@package/credentials/ContentModerationApi.credentials';
import { ContentModeration } from '@package/nodes/ContentModeration/ContentModeration.node';
import { waitCallbackWebhook } from '@package/nodes/ContentModeration/actions/waitForCallback';
import { resources } from '@package/nodes/ContentModeration/actions/resources';
import { isShortActionName } from '@test/helpers/actionNames';

const description = new ContentModeration().description;
/** The AI Agent tool n8n derives from the node: the same properties under a name ending in `Tool`. */
const toolDescription: INodeTypeDescription = { ...description, name: `${description.name}Tool` };

/** Every (resource, operation, option) the node's Operation fields offer. */
const operations = description.properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) =>
		(p.displayOptions?.show?.resource as string[]).flatMap((resource) =>
			(p.options as INodePropertyOptions[]).map((option) => ({ resource, operation: String(option.value), option })),
		),
	);

function node(parameters: INodeParameters, type = description.name): INode {
	return { id: '1', name: 'n', type, typeVersion: description.version as number, position: [0, 0], parameters };
}

/** The parameters n8n runs a node with: the saved ones plus the defaults of every displayed field. */
function withDefaults(desc: INodeTypeDescription, parameters: INodeParameters) {
	return NodeHelpers.getNodeParameters(desc.properties, parameters, true, false, node(parameters), desc)!;
}

test('the operation list covers every operation the router runs', () => {
	const listed = operations.map((o) => `${o.resource}.${o.operation}`).sort();
	const run = Object.entries(resources)
		.flatMap(([resource, ops]) => Object.keys(ops).map((operation) => `${resource}.${operation}`))
		.sort();
	expect(listed).toEqual(run);
	expect(listed.length).toBeGreaterThanOrEqual(6);
});

describe.each(operations)('$resource > $option.name', ({ resource, operation, option }) => {
	const action = option.action ?? '';

	test('its action is short, in sentence case, n8n-like ("Get a row")', () => {
		expect({ action, short: isShortActionName(action) }).toEqual({ action, short: true });
	});

	test('n8n names a node added with it after the action', () => {
		const parameters = withDefaults(description, { resource, operation });
		expect(NodeHelpers.makeNodeName(parameters, description)).toBe(action);
	});

	test('the AI Agent tool tells the model its fuller description', () => {
		const parameters = withDefaults(toolDescription, { resource, operation });
		const told = NodeHelpers.getToolDescriptionForNode(node(parameters), { description: toolDescription } as never);
		expect(told).toBe(resources[resource][operation].toolDescription);
		expect(told.length).toBeGreaterThan(action.length + 20);
	});

	test('the tool Description field is not on the plain node', () => {
		expect(withDefaults(description, { resource, operation })).not.toHaveProperty('toolDescription');
	});
});

test("a description written in the tool's settings is what the model is told", () => {
	// As n8n's own tool field saved it: Set Manually plus the text.
	const saved = { resource: 'image', operation: 'moderate', descriptionType: 'manual', toolDescription: 'Check a photo' };
	const parameters = withDefaults(toolDescription, saved);
	expect(NodeHelpers.getToolDescriptionForNode(node(parameters), { description: toolDescription } as never)).toBe(
		'Check a photo',
	);
});

describe('one Options collection per panel', () => {
	const REQUEST_SETTINGS = ['concurrency', 'maxConcurrency', 'maxRetries'];
	const SENDS_IMAGES = ['image.moderate', 'queue.addItem'];

	/** The collections a panel shows for these parameters, with the options each offers. */
	function collections(parameters: INodeParameters) {
		const all = withDefaults(description, parameters);
		return description.properties
			.filter((p) => p.type === 'collection')
			.filter((p) => NodeHelpers.displayParameter(all, p, node(all), description))
			.map((p) => ({
				name: p.name,
				options: (p.options ?? []) as INodeProperties[],
				labels: (p.options ?? []).map((o) => ('displayName' in o ? o.displayName : o.name)),
			}));
	}

	test('one version, 2 (not 1, docs/callbacks.md): what a node added from the nodes panel gets is what every workflow runs', () => {
		expect(description.version).toBe(2);
		expect(description.defaultVersion).toBeUndefined();
	});

	test('Text > Moderate: its own options (Banned Words, Metadata, Actor ID) with the request settings; Callback URL only when Deferred', () => {
		const shown = collections({ resource: 'text', operation: 'moderate', mode: 'immediate' });
		expect(shown.map((c) => c.name)).toEqual(['options']);
		expect(shown[0].options.map((o) => o.name)).toEqual(expect.arrayContaining(['actorId', 'bannedWords', 'meta', ...REQUEST_SETTINGS]));
		// The editor shows a collection's option by its own displayOptions, relative to the node's mode.
		expect(shown[0].options.find((o) => o.name === 'callbackUrl')?.displayOptions).toEqual({ show: { '/mode': ['deferred'] } });
	});

	test('Text > Moderate is labelled "Moderate" with the modes Immediate, Deferred and Wait for Callback', () => {
		const parameters = withDefaults(description, { resource: 'text', operation: 'moderate' });
		const shown = description.properties.filter((p) => NodeHelpers.displayParameter(parameters, p, node(parameters), description));
		const operation = shown.filter((p) => p.name === 'operation');
		expect(operation).toHaveLength(1);
		expect((operation[0].options as INodePropertyOptions[]).find((o) => o.value === 'moderate')?.name).toBe('Moderate');
		const mode = shown.filter((p) => p.name === 'mode');
		expect(mode).toHaveLength(1);
		expect((mode[0].options as INodePropertyOptions[]).map((o) => o.value)).toEqual(['immediate', 'deferred', 'waitCallback']);
	});

	test.each(operations)('$resource > $option.name: Options only, with the request settings', ({ resource, operation }) => {
		const shown = collections({ resource, operation });
		expect(shown.map((c) => c.name)).toEqual(['options']);
		const names = shown[0].options.map((o) => o.name);
		const { labels } = shown[0];
		expect(names).toEqual(expect.arrayContaining(REQUEST_SETTINGS));
		expect(names.includes('maxImageSizeMb')).toBe(SENDS_IMAGES.includes(`${resource}.${operation}`));
		// n8n's order in an Add Option list: A to Z by label.
		expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
	});
});

describe('fields shown by the parameters the editor holds', () => {
	/** Whether the editor shows the Options collection's option `name` for these node parameters. */
	function optionShown(parameters: INodeParameters, name: string): boolean {
		const all = withDefaults(description, parameters);
		const collection = description.properties.find(
			(p) => p.name === 'options' && NodeHelpers.displayParameter(all, p, node(all), description),
		);
		const option = (collection?.options as INodeProperties[] | undefined)?.find((o) => o.name === name);
		if (!option) return false;
		// An option's '/…' conditions read the node's parameters (nodeValuesRoot), as the editor does.
		return NodeHelpers.displayParameter({}, option, node(all), description, all);
	}

	test('Queue > Add Item offers Max Image Size only for Content Type Image', () => {
		const addItem = { resource: 'queue', operation: 'addItem' };
		expect(optionShown({ ...addItem, contentType: 'text' }, 'maxImageSizeMb')).toBe(false);
		expect(optionShown({ ...addItem, contentType: 'image', inputType: 'base64' }, 'maxImageSizeMb')).toBe(true);
		expect(optionShown({ ...addItem, contentType: 'text' }, 'maxRetries')).toBe(true);
		expect(optionShown({ resource: 'image', operation: 'moderate' }, 'maxImageSizeMb')).toBe(true);
	});

	test("Image > Moderate's tool description names riskScores as the service returns it: overall, spam, toxicity, 1-100", () => {
		const told = resources.image.moderate.toolDescription;
		expect(told).toContain('riskScores (overall, spam and toxicity, each 1-100)');
		expect(told).not.toMatch(/per category|0-100/);
	});
});


describe('what n8n reads from the node description', () => {
	test('the type name saved workflows refer to, its panel group and the name a new node gets', () => {
		// Workflows store the node as n8n-nodes-content-moderation.contentModeration: a new name orphans them.
		expect(description.name).toBe('contentModeration');
		expect(description.group).toEqual(['transform']);
		expect(description.defaults).toEqual({ name: 'Content Moderation' });
	});

	test('one main input, and the credential it requires is the package credential', () => {
		expect(description.inputs).toEqual([NodeConnectionTypes.Main]);
		expect(description.credentials).toEqual([{ name: new ContentModerationApi().name, required: true }]);
	});

	test("Wait for Callback's resume webhook is registered on the node", () => {
		expect(description.webhooks).toEqual([waitCallbackWebhook]);
	});

	test('Resource is a fixed choice (no expression) of the resources the router runs, Image by default', () => {
		const resource = description.properties.find((p) => p.name === 'resource');
		expect(resource?.noDataExpression).toBe(true);
		expect((resource?.options as INodePropertyOptions[]).map((o) => o.value)).toEqual(Object.keys(resources).sort());
		expect(resource?.default).toBe('image');
		// What a new node runs: the Image operations the editor then offers.
		expect(Object.keys(resources)).toContain(resource?.default);
	});
});
