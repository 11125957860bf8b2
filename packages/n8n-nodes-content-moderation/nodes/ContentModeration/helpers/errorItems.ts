import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Only `error` and `details`: n8n 2.x moves it to the Error output under "Continue (using error output)". */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const { message, description, httpCode } = (error ?? {}) as Record<string, unknown>;
	const details: IDataObject = {};
	if (typeof description === 'string' && description !== '') details.description = description;
	if (typeof httpCode === 'string' && httpCode !== '') details.httpCode = httpCode;
	return {
		json: {
			error: typeof message === 'string' && message !== '' ? message : 'Unknown error',
			...(Object.keys(details).length > 0 ? { details } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}

/** The error of bad input or state (of item `itemIndex` where there is one): `description` says what to change. */
export const operationError = (node: INode, itemIndex: number | undefined, message: string, description: string) =>
	new NodeOperationError(node, message, { itemIndex, description });

/** n8n's own node errors as they are, anything else wrapped with the item. */
export function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}
