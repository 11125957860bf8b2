/**
 * The routing parameters as n8n sees them: which operations offer them, and the outputs n8n computes
 * from the node's dynamic `outputs` expression (the same call the editor and the engine make).
 */
import type { INode, INodeParameters, INodeProperties, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { ContentModeration } from '@package/nodes/ContentModeration/ContentModeration.node';
import { NSFW_CATEGORIES } from '@package/nodes/ContentModeration/verdict/rules';

const nodeType = new ContentModeration();
const nodeTypes: INodeTypes = {
	getByName: () => nodeType,
	getByNameAndVersion: () => nodeType,
	getKnownTypes: () => ({}),
};

/** The node as a loaded workflow holds it: defaults filled in, hidden parameters dropped. */
function outputsFor(parameters: INodeParameters, onError?: INode['onError']) {
	const node: INode = {
		id: '1',
		name: 'Content Moderation',
		type: 'contentModeration',
		typeVersion: nodeType.description.version as number,
		position: [0, 0],
		parameters,
		...(onError ? { onError } : {}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const loaded = workflow.getNode(node.name) as INode;
	const outputs = NodeHelpers.getNodeOutputs(workflow, loaded, nodeType.description);
	return outputs.map((output) => (typeof output === 'string' ? '' : (output.displayName ?? '')));
}

describe('Route by Verdict parameters', () => {
	it('keeps one output when off, and by default', () => {
		expect(outputsFor({ resource: 'image', operation: 'moderate' })).toEqual(['']);
		expect(outputsFor({ resource: 'image', operation: 'moderate', routeByVerdict: false })).toEqual(['']);
	});

	it('gives Safe and Flagged, plus Review when asked, on every routable operation', () => {
		for (const [resource, operation] of [
			['image', 'moderate'],
			['text', 'get'],
			['queue', 'getItem'],
		]) {
			const base = { resource, operation, routeByVerdict: true };
			expect(outputsFor(base)).toEqual(['Safe', 'Flagged']);
			expect(outputsFor({ ...base, reviewOutput: true })).toEqual(['Safe', 'Flagged', 'Review']);
		}
	});

	it('puts Timed Out first in the Wait for Callback mode (where n8n hands timed-out inputs), one output without routing', () => {
		const base = { resource: 'image', operation: 'moderate', mode: 'waitCallback' };
		expect(outputsFor(base)).toEqual(['']);
		expect(outputsFor({ ...base, routeByVerdict: true })).toEqual(['Timed Out', 'Safe', 'Flagged']);
		expect(outputsFor({ ...base, routeByVerdict: true, reviewOutput: true })).toEqual([
			'Timed Out',
			'Safe',
			'Flagged',
			'Review',
		]);
		// A mode stray on another operation changes nothing.
		expect(outputsFor({ resource: 'text', operation: 'get', mode: 'waitCallback', routeByVerdict: true })).toEqual([
			'Safe',
			'Flagged',
		]);
	});

	it('is not offered on operations without an analysis: a stray value there changes nothing', () => {
		for (const [resource, operation] of [
			['image', 'get'],
			['text', 'delete'],
			['queue', 'addItem'],
		]) {
			expect(outputsFor({ resource, operation, routeByVerdict: true, reviewOutput: true })).toEqual(['']);
		}
	});

	it('leaves the Error output to n8n, after the verdict outputs', () => {
		const base = { resource: 'image', operation: 'moderate', routeByVerdict: true };
		expect(outputsFor({ ...base, reviewOutput: true }, 'continueErrorOutput')).toEqual([
			'Safe',
			'Flagged',
			'Review',
			'Error',
		]);
		expect(outputsFor({ resource: 'image', operation: 'moderate' }, 'continueErrorOutput')).toEqual([
			'Success',
			'Error',
		]);
	});

	it('offers every spec category plus free text in the category dropdown', () => {
		const property = nodeType.description.properties.find((p) => p.name === 'categoryThresholds');
		const values = (property?.options?.[0] as { values: INodeProperties[] }).values;
		const category = values.find((v) => v.name === 'category');
		const offered = (category?.options ?? []).map((o) => (o as { value: string }).value);
		expect(offered).toEqual(expect.arrayContaining([...NSFW_CATEGORIES, '__custom']));
		expect(offered).toHaveLength(NSFW_CATEGORIES.length + 1);
		const custom = values.find((v) => v.name === 'customCategory');
		expect(custom?.displayOptions?.show?.category).toEqual(['__custom']);
	});
});
