import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Operation } from './operation';

/** One Operation parameter of a resource, shown where `show` holds; `options` replace an operation's option by value. */
export interface OperationVariant {
	show?: IDisplayOptions['show'];
	options?: Record<string, INodePropertyOptions>;
}

/**
 * A resource's operations by value (what the router runs) and its fields, both derived from one list of
 * operation modules: each brings its own `option`, so adding an operation is its file and its entry in the list.
 * The options are sorted by name, as n8n's lint asks of a literal list.
 */
export function defineResource(
	resource: string,
	list: Operation[],
	settings: { default: string; variants?: OperationVariant[] },
): { operations: Record<string, Operation>; description: INodeProperties[] } {
	const defaultOperation = settings.default;
	const operations: Record<string, Operation> = {};
	for (const operation of list) operations[operation.option.value as string] = operation;

	const operationProperty = (variant: OperationVariant): INodeProperties => ({
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource], ...variant.show } },
		options: list
			.map((operation) => variant.options?.[operation.option.value as string] ?? operation.option)
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	});

	return {
		operations,
		description: [
			...(settings.variants ?? [{}]).map(operationProperty),
			...list.flatMap((operation) => operation.description),
		],
	};
}
