/**
 * What the editor and the AI Agent take from the action node's description, read with n8n-workflow's
 * own functions: the node name n8n gives a node added from the nodes panel (the operation's `action`) and
 * what the model is told when the node is a tool. Iterates over every operation, also ones added later.
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ContentModeration } from '@package/nodes/ContentModeration/ContentModeration.node';
import { resources } from '@package/nodes/ContentModeration/actions/resources';
import { isShortActionName } from '@test/helpers/actionNames';

const description = new ContentModeration().description;
/** The AI Agent tool n8n derives from the node: the same properties under a name ending in `Tool`. */
const toolDescription: INodeTypeDescription = { ...description, name: `${description.name}Tool` };

const versions = ([] as number[]).concat(description.version);

/** Every (resource, operation, option) the node's Operation fields offer. */
const operations = description.properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) =>
		(p.displayOptions?.show?.resource as string[]).flatMap((resource) =>
			(p.options as INodePropertyOptions[]).map((option) => ({ resource, operation: String(option.value), option })),
		),
	);

function node(parameters: INodeParameters, typeVersion: number, type = description.name): INode {
	return { id: '1', name: 'n', type, typeVersion, position: [0, 0], parameters };
}

/** The parameters n8n runs a node with: the saved ones plus the defaults of every displayed field. */
function withDefaults(desc: INodeTypeDescription, parameters: INodeParameters, typeVersion: number) {
	return NodeHelpers.getNodeParameters(desc.properties, parameters, true, false, node(parameters, typeVersion), desc)!;
}

test('the operation list covers every operation the router runs', () => {
	// A version may relabel an operation (its own Operation field): each operation counts once.
	const listed = [...new Set(operations.map((o) => `${o.resource}.${o.operation}`))].sort();
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

	test.each(versions)('n8n names a node added with it after the action (v%p)', (version) => {
		const parameters = withDefaults(description, { resource, operation }, version);
		expect(NodeHelpers.makeNodeName(parameters, description)).toBe(action);
	});

	test.each(versions)('the AI Agent tool tells the model its fuller description (v%p)', (version) => {
		const parameters = withDefaults(toolDescription, { resource, operation }, version);
		const told = NodeHelpers.getToolDescriptionForNode(node(parameters, version), { description: toolDescription } as never);
		expect(told).toBe(resources[resource][operation].toolDescription);
		expect(told.length).toBeGreaterThan(action.length + 20);
	});

	test.each(versions)('the tool Description field is not on the plain node (v%p)', (version) => {
		expect(withDefaults(description, { resource, operation }, version)).not.toHaveProperty('toolDescription');
	});
});

test("a description written in the tool's settings is what the model is told", () => {
	// As n8n's own tool field saved it: Set Manually plus the text.
	const saved = { resource: 'image', operation: 'moderate', descriptionType: 'manual', toolDescription: 'Check a photo' };
	const parameters = withDefaults(toolDescription, saved, 1);
	expect(NodeHelpers.getToolDescriptionForNode(node(parameters, 1), { description: toolDescription } as never)).toBe(
		'Check a photo',
	);
});

describe('one Options collection per panel from version 2', () => {
	const REQUEST_SETTINGS = ['concurrency', 'maxConcurrency', 'maxRetries'];
	const SENDS_IMAGES = ['image.moderate', 'queue.addItem'];

	/** The collections a panel shows for this operation, with the options each offers. */
	function collections(resource: string, operation: string, version: number) {
		const parameters = withDefaults(description, { resource, operation }, version);
		return description.properties
			.filter((p) => p.type === 'collection')
			.filter((p) => NodeHelpers.displayParameter(parameters, p, node(parameters, version), description))
			.map((p) => ({
				name: p.name,
				options: (p.options ?? []).map((o) => o.name),
				labels: (p.options ?? []).map((o) => ('displayName' in o ? o.displayName : o.name)),
			}));
	}

	test('the newest version is 3: what a node added from the nodes panel gets', () => {
		expect(Math.max(...versions)).toBe(3);
		expect(description.defaultVersion).toBe(3);
	});

	test('v3 Text > Moderate: its own options (Banned Words, Metadata, Actor ID) with the request settings; Callback URL only when Deferred', () => {
		const options = (mode: string) => {
			const parameters = withDefaults(description, { resource: 'text', operation: 'moderate', mode }, 3);
			const shown = description.properties
				.filter((p) => p.type === 'collection')
				.filter((p) => NodeHelpers.displayParameter(parameters, p, node(parameters, 3), description));
			expect(shown.map((c) => c.name)).toEqual(['options']);
			return (shown[0].options ?? []) as INodeProperties[];
		};
		expect(options('immediate').map((o) => o.name)).toEqual(
			expect.arrayContaining(['actorId', 'bannedWords', 'meta', ...REQUEST_SETTINGS]),
		);
		// The editor shows a collection's option by its own displayOptions, relative to the node's mode.
		expect(options('deferred').find((o) => o.name === 'callbackUrl')?.displayOptions).toEqual({ show: { '/mode': ['deferred'] } });
	});

	test.each([
		[1, 'Moderate (via Queue)', ['wait', 'submit']],
		[2, 'Moderate (via Queue)', ['wait', 'submit']],
		[3, 'Moderate', ['immediate', 'deferred', 'waitCallback']],
	])('v%p: Text > Moderate is labelled "%s" with modes %p', (version, label, modes) => {
		const parameters = withDefaults(description, { resource: 'text', operation: 'moderate' }, version);
		const shown = description.properties.filter((p) =>
			NodeHelpers.displayParameter(parameters, p, node(parameters, version), description),
		);
		const operation = shown.filter((p) => p.name === 'operation');
		expect(operation).toHaveLength(1);
		const option = (operation[0].options as INodePropertyOptions[]).find((o) => o.value === 'moderate');
		expect(option?.name).toBe(label);
		const mode = shown.filter((p) => p.name === 'mode');
		expect(mode).toHaveLength(1);
		expect((mode[0].options as INodePropertyOptions[]).map((o) => o.value)).toEqual(modes);
	});

	test.each(operations)('$resource > $option.name, v2: Options only, with the request settings', ({ resource, operation }) => {
		const shown = collections(resource, operation, 2);
		expect(shown.map((c) => c.name)).toEqual(['options']);
		const { options, labels } = shown[0];
		expect(options).toEqual(expect.arrayContaining(REQUEST_SETTINGS));
		expect(options.includes('maxImageSizeMb')).toBe(SENDS_IMAGES.includes(`${resource}.${operation}`));
		// n8n's order in an Add Option list: A to Z by label.
		expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
	});

	test.each(operations)('$resource > $option.name, v1 as saved: Request Options beside its Options', ({ resource, operation }) => {
		const shown = collections(resource, operation, 1);
		const requestOptions = shown.find((c) => c.name === 'requestOptions');
		expect(requestOptions?.options).toEqual(['concurrency', 'maxConcurrency', 'maxRetries', 'maxImageSizeMb']);
		const own = shown.find((c) => c.name === 'options');
		const ownOptions: Record<string, string[]> = {
			'image.moderate': ['actorId', 'callbackUrl', 'meta'],
			'queue.addItem': ['actorId', 'meta'],
			'text.moderate': ['actorId', 'meta'],
		};
		expect(own?.options).toEqual(ownOptions[`${resource}.${operation}`]);
	});
});
