/** What a trigger added from the nodes panel starts with: its name, and options that add nothing until chosen. */
import type { INodeProperties } from 'n8n-workflow';

import { ContentModerationTrigger } from '@package/nodes/ContentModeration/ContentModerationTrigger.node';

const { description } = new ContentModerationTrigger();

test('a new trigger is named after the node, as n8n names its own', () => {
	expect(description.defaults.name).toBe(description.displayName);
});

test('Include Headers and Query, once added, starts off: headers reach the item only when asked for', () => {
	const options = description.properties.find((p) => p.name === 'options')?.options as INodeProperties[];
	expect(options.find((o) => o.name === 'includeRequest')).toMatchObject({ type: 'boolean', default: false });
});
