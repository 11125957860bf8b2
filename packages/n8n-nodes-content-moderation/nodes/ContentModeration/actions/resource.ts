import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import type { Operation } from './operation';

/** A resource's operations by value (what the router runs) and its fields, from one list of operation modules. */
export function defineResource(
	resource: string,
	list: Operation[],
	{ default: defaultOperation }: { default: string },
): { operations: Record<string, Operation>; description: INodeProperties[] } {
	const operations = Object.fromEntries(list.map((operation) => [operation.option.value as string, operation]));

	const operationProperty: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		// Sorted by name, as n8n's lint asks of a literal list.
		options: list.map((operation) => operation.option).sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
	const fields = list.flatMap(({ option, description }) =>
		updateDisplayOptions({ show: { resource: [resource], operation: [option.value as string] } }, description),
	);
	return { operations, description: [operationProperty, ...fields] };
}
