import type { INodeProperties } from 'n8n-workflow';

/**
 * The AI Agent tool's Description field, one per operation, prefilled with what the operation does and
 * returns. n8n adds its own field (filled from the short `action`) only when a node declares none named
 * `toolDescription`, and tells the model this field's value as it is; `@tool` shows it on the tool only.
 */
export function toolDescriptionProperties(
	resources: Record<string, Record<string, { toolDescription: string }>>,
): INodeProperties[] {
	return Object.entries(resources).flatMap(([resource, operations]) =>
		Object.entries(operations).map(([operation, { toolDescription }]) => ({
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string' as const,
			typeOptions: { rows: 2 },
			default: toolDescription,
			required: true,
			description:
				'What the AI model is told this tool does and returns. A good, specific description helps it call the tool at the right time and read its answer.',
			displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
		})),
	);
}
