import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * The output item for a failed input item under "On Error: Continue". Only `error` and `details`
 * keys, so that n8n recognises it as an error item and moves it to the Error output under
 * "Continue (using error output)". Messages come from our own errors, which never hold the token.
 */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const { message, description, httpCode } = (error ?? {}) as {
		message?: unknown;
		description?: unknown;
		httpCode?: unknown;
	};
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

/** Errors thrown on by the node: n8n's own node errors as they are, anything else wrapped with the item. */
export function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}
