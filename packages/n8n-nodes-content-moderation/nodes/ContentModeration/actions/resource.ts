import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from './operation';

/**
 * A resource's operations by value (what the router runs) and its fields, both derived from one list of
 * operation modules: each brings its own `option`, so adding an operation is its file and its entry in the list.
 * The options are sorted by name, as n8n's lint asks of a literal list.
 */
export function defineResource(
	resource: string,
	list: Operation[],
	settings: { default: string },
): { operations: Record<string, Operation>; description: INodeProperties[] } {
	const defaultOperation = settings.default;
	const operations: Record<string, Operation> = {};
	for (const operation of list) operations[operation.option.value as string] = operation;

	const operationProperty: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: list.map((operation) => operation.option).sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};

	return { operations, description: [operationProperty, ...list.flatMap((operation) => operation.description)] };
}
