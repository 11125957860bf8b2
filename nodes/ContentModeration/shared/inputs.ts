import type { IDataObject, IExecuteFunctions, JsonValue } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The spec gives identifier path parameters a minimum length of 3 (section 8). */
export const MIN_ID_LENGTH = 3;

export type ImageInputType = 'url' | 'base64' | 'binary';

/** A field check that failed: what is wrong and how to fix it; turned into a NodeOperationError. */
export class InputProblem {
	constructor(
		readonly message: string,
		readonly description: string,
	) {}
}

export function inputError(ctx: IExecuteFunctions, problem: InputProblem, itemIndex: number) {
	return new NodeOperationError(ctx.getNode(), `${problem.message} [item ${itemIndex}]`, {
		itemIndex,
		description: problem.description,
	});
}

function fail(ctx: IExecuteFunctions, itemIndex: number, message: string, description: string): never {
	throw inputError(ctx, new InputProblem(message, description), itemIndex);
}

// ---- pure checks (unit-tested without n8n) ----------------------------------------------------------

/** An id read from a parameter: trimmed (expressions often add a newline), at least MIN_ID_LENGTH long. */
export function checkId(value: unknown, field: string): string | InputProblem {
	const id = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (id === '') {
		return new InputProblem(`The ${field} is empty`, `Enter the ${field}, or map it from a previous node with an expression (for example {{ $json.id }}).`);
	}
	if (id.length < MIN_ID_LENGTH) {
		return new InputProblem(`The ${field} "${id}" is too short`, `IDs of the Content Moderation Service have at least ${MIN_ID_LENGTH} characters. Check the value or the expression that produces it.`);
	}
	return id;
}

/** A non-empty trimmed string (queue id, text). */
export function checkNotEmpty(value: unknown, field: string, hint: string): string | InputProblem {
	const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
	if (text.trim() === '') return new InputProblem(`The ${field} is empty`, hint);
	return text;
}

/** An absolute http(s) URL. */
export function checkHttpUrl(value: unknown, field: string): string | InputProblem {
	const text = typeof value === 'string' ? value.trim() : '';
	const description = `Enter a full address starting with http:// or https://, for example https://example.com/photo.jpg.`;
	if (text === '') return new InputProblem(`The ${field} is empty`, description);
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return new InputProblem(`The ${field} "${text}" is not a valid URL`, description);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return new InputProblem(`The ${field} must be an http(s) URL, not ${url.protocol.replace(/:$/, '')}`, description);
	}
	return text;
}

const DATA_URI_PREFIX = /^data:[^,]*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Base64 image text as the service wants it: a `data:...;base64,` prefix is stripped, line breaks
 * and spaces (from copied text) removed, and the result must decode back to the same text.
 */
export function normalizeBase64(value: unknown, field: string): string | InputProblem {
	const description =
		'Enter the image as base64 text (for example iVBORw0KGgo...). A "data:image/png;base64," prefix is accepted. To send a file, set Input Type to Binary File instead.';
	const raw = typeof value === 'string' ? value.trim() : '';
	const text = raw.replace(DATA_URI_PREFIX, '').replace(/\s+/g, '');
	if (text === '') return new InputProblem(`The ${field} is empty`, description);
	if (text.length % 4 !== 0 || !BASE64.test(text)) {
		return new InputProblem(`The ${field} is not valid base64`, description);
	}
	// Buffer is a Node global, not an import, so it is allowed in node code.
	if (Buffer.from(text, 'base64').toString('base64') !== text) {
		return new InputProblem(`The ${field} is not valid base64`, description);
	}
	return text;
}

/**
 * Metadata for Image > Moderate: JSON text parsed to its value; an object given by an expression
 * is taken as is. Empty means "not set".
 */
export function parseMetaJson(value: unknown, field: string): JsonValue | undefined | InputProblem {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') return value as JsonValue;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value) as JsonValue;
	} catch (error) {
		return new InputProblem(`The ${field} is not valid JSON`, `Enter JSON such as {"orderId": "A-17"} (double quotes around names and texts). Parser said: ${(error as Error).message}`);
	}
}

export function isProblem<T>(value: T | InputProblem): value is InputProblem {
	return value instanceof InputProblem;
}

// ---- n8n-facing wrappers: read a parameter, check it, throw a NodeOperationError ---------------------

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
