/**
 * A resource's operations come from one list (resource.ts): an operation added to Image's list appears in
 * the node's Operation options, sorted by name, and the router runs it through n8n-core's engine.
 */
import type { INodeProperties } from 'n8n-workflow';

import { ContentModeration } from '@package/nodes/ContentModeration/ContentModeration.node';
import { defineResource } from '@package/nodes/ContentModeration/actions/resource';
import { output, useMock } from '@test/helpers/nodeRun';

// Image's list as its index.ts builds it, with one operation more: what adding a line there does.
jest.mock('@package/nodes/ContentModeration/actions/image', () => {
	const actual = jest.requireActual('@package/nodes/ContentModeration/actions/image');
	const { defineResource } = jest.requireActual('@package/nodes/ContentModeration/actions/resource');
	const echo = {
		option: { name: 'Echo', value: 'echo', action: 'Echo an item', description: 'Returns the item index' },
		description: [],
		toolDescription: 'Returns the item index',
		execute: async (itemIndex: number) => ({ echoed: itemIndex }),
	};
	return defineResource('image', [...Object.values(actual.operations), echo], { default: 'moderate' });
});

const mock = useMock();

function imageOperations(): INodeProperties {
	const property = new ContentModeration().description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === 'image',
	);
	if (!property) throw new Error('no Operation parameter for Image');
	return property;
}

describe('an operation added to a resource list', () => {
	it('appears in the Operation options, sorted by name, with its own name, action and description', () => {
		const property = imageOperations();
		expect(property.default).toBe('moderate');
		expect(property.options).toEqual([
			{ name: 'Echo', value: 'echo', action: 'Echo an item', description: 'Returns the item index' },
			expect.objectContaining({ name: 'Get', value: 'get' }),
			expect.objectContaining({ name: 'Moderate', value: 'moderate' }),
		]);
	});

	it('is run by the router, each item paired, without a request to the service', async () => {
		const run = await mock.run({ resource: 'image', operation: 'echo' }, [{ json: {} }, { json: {} }]);
		expect(run.status).toBe('success');
		expect(output(run).map((item) => [item.json, item.pairedItem])).toEqual([
			[{ echoed: 0 }, { item: 0 }],
			[{ echoed: 1 }, { item: 1 }],
		]);
		expect(mock.service.requests).toEqual([]);
	});
});

describe("a resource's Operation field", () => {
	it('is a fixed choice, never an expression: the router reads it once to pick the operation', () => {
		expect(imageOperations().noDataExpression).toBe(true);
		const { description } = defineResource('text', [], { default: 'moderate' });
		expect(description[0]).toMatchObject({ name: 'operation', noDataExpression: true, displayOptions: { show: { resource: ['text'] } } });
	});
});
