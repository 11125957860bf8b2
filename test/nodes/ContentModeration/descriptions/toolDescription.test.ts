/**
 * The AI Agent tool's Description fields (toolDescription.ts), read with n8n's own functions: one per operation,
 * on the tool only, prefilled with what that operation does; n8n tells the model the field's value.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { toolDescriptionProperties } from '@package/nodes/ContentModeration/descriptions/toolDescription';
import { contentModerationNode } from '@test/helpers/fixtures';
import { issues, nodeTypeWith, resolved } from '@test/helpers/editorParameters';

const told = { image: { moderate: { toolDescription: 'Moderates an image' }, get: { toolDescription: 'Reads an image result' } }, text: { get: { toolDescription: 'Reads a text result' } } };
const chooser = (name: string): INodeProperties => ({ displayName: name, name, type: 'string', default: '' });
const fields = [chooser('resource'), chooser('operation'), ...toolDescriptionProperties(told)];
const tool = nodeTypeWith(fields, 'contentModerationTool');
const plain = nodeTypeWith(fields);

const toldModel = (parameters: INodeParameters) =>
	NodeHelpers.getToolDescriptionForNode({ ...contentModerationNode, parameters: resolved(tool, parameters) }, { description: tool } as never);

describe('the tool Description fields', () => {
	it.each([
		['image', 'moderate', 'Moderates an image'],
		['image', 'get', 'Reads an image result'],
		['text', 'get', 'Reads a text result'],
	])('%s > %s: the model is told its own description', (resource, operation, description) => {
		expect(toldModel({ resource, operation })).toBe(description);
	});

	it('are not on the plain node', () => {
		expect(resolved(plain, { resource: 'image', operation: 'moderate' })).not.toHaveProperty('toolDescription');
	});

	it('emptied, n8n asks for one before a run', () => {
		const parameters = { ...resolved(tool, { resource: 'text', operation: 'get' }), toolDescription: '' };
		expect(issues(tool, parameters)).toEqual({ toolDescription: [expect.stringContaining('is required')] });
	});

	it('are boxes of a few lines', () => {
		expect(toolDescriptionProperties(told).every((field) => Number(field.typeOptions?.rows) > 1)).toBe(true);
	});
});
