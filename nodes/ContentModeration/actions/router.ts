import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapConcurrent, readThroughputOptions } from '../shared/concurrency';
import { asNodeError, errorItem } from '../shared/errors';
import { assertVerdictRoutable, isVerdictRoutingOn, routeByVerdict } from '../shared/routing';
import * as image from './image';
import * as queue from './queue';
import * as text from './text';

/** One operation: checks its inputs, sends its request(s) and returns the result for one item. */
export interface Operation {
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject>;
}

const resources: Record<string, Record<string, Operation>> = {
	image: image.operations,
	queue: queue.operations,
	text: text.operations,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const run = resources[resource]?.[operation];
	if (!run) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
		);
	}

	/** All work for one input item: its output items paired to it, or one error item under continueOnFail. */
	const processItem = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		try {
			assertVerdictRoutable.call(this, resource, operation, itemIndex);
			const json = await run.execute.call(this, itemIndex);
			return [{ json, pairedItem: { item: itemIndex } }];
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error, itemIndex);
			return [errorItem(error, itemIndex)];
		}
	};

	// Items run in a bounded pool (Request Options > Concurrency); results keep input order.
	const { concurrency } = readThroughputOptions(this);
	const indexes = this.getInputData().map((_, itemIndex) => itemIndex);
	const results = (await mapConcurrent(indexes, concurrency, processItem)).flat();

	if (isVerdictRoutingOn.call(this, resource, operation)) {
		return routeByVerdict.call(this, resource, operation, results);
	}
	return [results];
}
