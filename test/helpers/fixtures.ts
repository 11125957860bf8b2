/** Small fixtures shared by tests that run workflows: pass-through nodes after the Content Moderation node, pairing. */
import type { IExecuteFunctions, INode, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ACTION_TYPE } from '../../dev/n8n/package';
import { ownNodeVersion } from './engine/node-types';

/** The input item index an output item is paired to (n8n accepts a number, an object or a list of them). */
export function pairedIndex(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number' ? paired : paired?.item;
}

/** The action node as a workflow holds it, for helpers that only need `getNode()`. */
export const contentModerationNode: INode = {
	id: '1',
	name: 'Content Moderation',
	type: ACTION_TYPE,
	typeVersion: ownNodeVersion(ACTION_TYPE),
	position: [0, 0],
	parameters: {},
};

/** A test node's description: one input, one output, named as its display name in camelCase; `more` overrides. */
export function testNodeDescription(
	displayName: string,
	description: string,
	more: Partial<INodeTypeDescription> = {},
): INodeTypeDescription {
	const name = displayName.replace(/ (\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toLowerCase());
	return {
		displayName,
		name,
		group: ['transform'],
		version: 1,
		description,
		defaults: { name: displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
		...more,
	};
}

/**
 * A downstream node that resolves `$('Start').item` for each of its input items: n8n's paired-item
 * lineage, the way a user's expression in a later node reads it.
 */
export const probeNode: INodeType = {
	description: testNodeDescription('Probe', 'Reads the paired Start item', {
		properties: [{ displayName: 'Value', name: 'value', type: 'string', default: '' }],
	}),
	async execute(this: IExecuteFunctions) {
		return [
			this.getInputData().map((item, itemIndex): INodeExecutionData => {
				let paired: string | null;
				try {
					paired = (this.getNodeParameter('value', itemIndex) as string | undefined) ?? null;
				} catch (error) {
					paired = `error: ${(error as Error).message}`;
				}
				return { json: { own: item.json.name ?? null, paired }, pairedItem: { item: itemIndex } };
			}),
		];
	},
};

/**
 * A downstream node that passes its input on with a `label` parameter resolved per item, to see which
 * items reach which branch and what `$('Start').item` (n8n's paired-item lookup) finds from there.
 */
export const passThroughNode: INodeType = {
	description: testNodeDescription('Pass Through', 'Passes items on', {
		properties: [{ displayName: 'Label', name: 'label', type: 'string', default: '' }],
	}),
	async execute(this: IExecuteFunctions) {
		return [
			this.getInputData().map((item, index) => ({
				json: { ...item.json, label: this.getNodeParameter('label', index) },
				pairedItem: { item: index },
			})),
		];
	},
};
