/** Reads a parameter, checks it, and throws a NodeOperationError for the item when the check fails. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkHttpUrl, checkId, InputProblem, isProblem, normalizeBase64 } from './checks';

type ImageInputType = 'url' | 'base64' | 'binary';

function inputError(ctx: IExecuteFunctions, problem: InputProblem, itemIndex: number) {
	return new NodeOperationError(ctx.getNode(), `${problem.message} [item ${itemIndex}]`, {
		itemIndex,
		description: problem.description,
	});
}

function fail(ctx: IExecuteFunctions, itemIndex: number, message: string, description: string): never {
	throw inputError(ctx, new InputProblem(message, description), itemIndex);
}

/** Returns the checked value or throws the problem as a NodeOperationError for this item. */
export function ensure<T>(ctx: IExecuteFunctions, itemIndex: number, result: T | InputProblem): T {
	if (isProblem(result)) throw inputError(ctx, result, itemIndex);
	return result;
}

export function getId(ctx: IExecuteFunctions, itemIndex: number, parameter: string, field: string): string {
	return ensure(ctx, itemIndex, checkId(ctx.getNodeParameter(parameter, itemIndex, ''), field));
}

/** Optional string option: trimmed, undefined when empty so that it is not sent. */
export function optionalString(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(value).trim();
	return text === '' ? undefined : text;
}

/**
 * The image string the service accepts (URL or plain base64) from the image input parameters:
 * `inputType`, `imageUrl`, `imageBase64`, `binaryPropertyName`.
 */
export async function readImage(ctx: IExecuteFunctions, itemIndex: number): Promise<string> {
	const inputType = ctx.getNodeParameter('inputType', itemIndex, 'url') as ImageInputType;
	if (inputType === 'url') {
		return ensure(ctx, itemIndex, checkHttpUrl(ctx.getNodeParameter('imageUrl', itemIndex, ''), 'Image URL'));
	}
	if (inputType === 'base64') {
		return ensure(
			ctx,
			itemIndex,
			normalizeBase64(ctx.getNodeParameter('imageBase64', itemIndex, ''), 'Image (Base64)'),
		);
	}
	if (inputType === 'binary') return await readBinaryAsBase64(ctx, itemIndex);
	return fail(
		ctx,
		itemIndex,
		`Unknown Input Type "${String(inputType)}"`,
		'Choose Image URL, Base64 or Binary File as Input Type.',
	);
}

async function readBinaryAsBase64(ctx: IExecuteFunctions, itemIndex: number): Promise<string> {
	const property = String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
	const binary = ctx.getInputData()[itemIndex]?.binary ?? {};
	if (property === '' || !(property in binary)) {
		const available = Object.keys(binary);
		fail(
			ctx,
			itemIndex,
			`The input item has no binary property "${property}"`,
			available.length > 0
				? `Set Binary Property to one of: ${available.join(', ')} (see the Binary tab of the input item).`
				: 'The input item has no binary data at all. Add a node that reads or downloads the image (for example Read/Write Files from Disk or HTTP Request with Response Format "File") before this node.',
		);
	}
	// Stored binaries keep only a reference in `.data` (filesystem, database, S3 modes): read the bytes.
	const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	if (bytes.length === 0) {
		fail(
			ctx,
			itemIndex,
			`The binary property "${property}" is empty`,
			'Check the node that produced the file: it holds 0 bytes.',
		);
	}
	return bytes.toString('base64');
}

/** The `options` collection of an operation, as an object. */
export function getOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject | null) ?? {};
}
