/**
 * What n8n makes of a node's fields, with n8n-workflow's own functions (the editor's and the engine's): the
 * parameters a run gets, the fields shown, the issues that stop a run. For tests of parameter descriptions
 * by what they do, without the whole node.
 */
import type { IExecuteFunctions, INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { contentModerationNode, testNodeDescription } from './fixtures';

/** A node type with these fields; a name ending in "Tool" is an AI Agent tool to n8n ('@tool'). */
export const nodeTypeWith = (properties: INodeProperties[], name = 'contentModeration'): INodeTypeDescription =>
	testNodeDescription('Content Moderation', 'Fields under test', { name, properties });

const nodeWith = (parameters: INodeParameters): INode => ({ ...contentModerationNode, parameters });

/** The parameters a run gets from saved ones: values of shown fields (unknown ones dropped), defaults of the rest. */
export const resolved = (type: INodeTypeDescription, saved: INodeParameters): INodeParameters =>
	NodeHelpers.getNodeParameters(type.properties, saved, true, false, nodeWith(saved), type) ?? {};

/** The names of the top-level fields the editor shows for these saved parameters. */
export function shownFields(type: INodeTypeDescription, saved: INodeParameters): string[] {
	const values = resolved(type, saved);
	return type.properties.filter((p) => NodeHelpers.displayParameter(values, p, nodeWith(values), type)).map((p) => p.name);
}

/** n8n's issues (a required field left empty), by field: a node with any does not run. */
export const issues = (type: INodeTypeDescription, parameters: INodeParameters) =>
	NodeHelpers.getNodeParametersIssues(type.properties, nodeWith(parameters), type)?.parameters ?? {};

/** A context whose getNodeParameter reads these (resolved) parameters, dotted paths too. */
export const readingFrom = (parameters: INodeParameters) =>
	({
		getNode: () => contentModerationNode,
		getNodeParameter: (path: string, _itemIndex: number, fallback?: unknown) =>
			path.split('.').reduce<unknown>((value, key) => (value as INodeParameters | undefined)?.[key], parameters) ?? fallback,
	}) as unknown as IExecuteFunctions;
