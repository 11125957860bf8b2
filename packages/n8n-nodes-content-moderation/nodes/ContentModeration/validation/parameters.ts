/** Reads a parameter, checks it, and throws a NodeOperationError for the item when the check fails. */
import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { operationError } from '../helpers/errorItems';
import type { UnreadBody } from '../transport/client';
import { checkHttpUrl, checkId, checkNotEmpty, InputProblem, isProblem, normalizeBase64, optionalText } from './checks';

type ImageInputType = 'url' | 'base64' | 'binary';

/** Returns the checked value or throws the problem as a NodeOperationError for this item. */
export function ensure<T>(ctx: IExecuteFunctions, itemIndex: number, result: T | InputProblem): T {
	if (!isProblem(result)) return result;
	throw operationError(ctx.getNode(), itemIndex, `${result.message} [item ${itemIndex}]`, result.description);
}

function fail(ctx: IExecuteFunctions, itemIndex: number, message: string, description: string): never {
	return ensure<never>(ctx, itemIndex, new InputProblem(message, description));
}

export function getId(ctx: IExecuteFunctions, itemIndex: number, parameter: string, field: string): string {
	return ensure(ctx, itemIndex, checkId(ctx.getNodeParameter(parameter, itemIndex, ''), field));
}

/** Not blank, and sent as typed. */
export function getText(ctx: IExecuteFunctions, itemIndex: number): string {
	const hint = 'Enter the text to moderate, or map it from a previous node (for example {{ $json.comment }}).';
	return ensure(ctx, itemIndex, checkNotEmpty(ctx.getNodeParameter('text', itemIndex, ''), 'Text', hint));
}

export function getActorId(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject): string | undefined {
	return ensure(ctx, itemIndex, optionalText(options.actorId, 'Actor ID', '{{ $json.user.id }}', true));
}

/** The image string the service accepts, checked but not read yet (the sender makes room for `bodyBytes` first). */
export type ImageInput = UnreadBody<string>;

const MB = 1024 * 1024;
const formatMb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

function checkImageSize(ctx: IExecuteFunctions, itemIndex: number, bytes: number, maxBytes: number): void {
	if (bytes <= maxBytes) return;
	fail(
		ctx,
		itemIndex,
		`The image is ${formatMb(bytes)}, larger than Max Image Size (${Math.round(maxBytes / MB)} MB)`,
		'Nothing was sent. Resize or compress the image first (for example with the Edit Image node), or raise Request Options > Max Image Size (MB) if the service accepts larger images.',
	);
}

/** The request body `build` makes around `image`, read when the request may go out; its size is the image's. */
export const withImage = <B extends IDataObject>(image: ImageInput, build: (image: string) => B): UnreadBody<B> => ({
	bodyBytes: image.bodyBytes,
	read: async () => build(await image.read()),
});

const inMemory = (image: string): ImageInput => ({ bodyBytes: image.length, read: async () => image });

/** The image (URL or plain base64) from the image input fields; one larger than `maxImageBytes` is refused. */
export async function imageInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	maxImageBytes: number,
): Promise<ImageInput> {
	const inputType = ctx.getNodeParameter('inputType', itemIndex, 'url') as ImageInputType;
	const param = (name: string) => ctx.getNodeParameter(name, itemIndex, '');
	if (inputType === 'url') return inMemory(ensure(ctx, itemIndex, checkHttpUrl(param('imageUrl'), 'Image URL')));
	if (inputType === 'base64') {
		const base64 = ensure(ctx, itemIndex, normalizeBase64(param('imageBase64'), 'Image (Base64)'));
		checkImageSize(ctx, itemIndex, decodedLength(base64), maxImageBytes);
		return inMemory(base64);
	}
	if (inputType === 'binary') return await binaryInput(ctx, itemIndex, maxImageBytes);
	const fix = 'Choose Image URL, Base64 or Binary File as Input Type.';
	return fail(ctx, itemIndex, `Unknown Input Type "${String(inputType)}"`, fix);
}

function decodedLength(base64: string): number {
	const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
	return Math.floor((base64.length * 3) / 4) - padding;
}

/** The binary's size without reading it. */
async function binarySize(ctx: IExecuteFunctions, binary: IBinaryData): Promise<number | undefined> {
	if (typeof binary.bytes === 'number') return binary.bytes;
	if (binary.id) {
		try {
			return (await ctx.helpers.getBinaryMetadata(binary.id)).fileSize;
		} catch {
			return undefined;
		}
	}
	return typeof binary.data === 'string' ? decodedLength(binary.data) : undefined;
}

async function binaryInput(ctx: IExecuteFunctions, itemIndex: number, maxImageBytes: number): Promise<ImageInput> {
	const property = String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
	const binary = ctx.getInputData()[itemIndex]?.binary ?? {};
	if (property === '' || !Object.hasOwn(binary, property)) {
		const available = Object.keys(binary);
		const fix =
			available.length > 0
				? `Set Binary Property to one of: ${available.join(', ')} (see the Binary tab of the input item).`
				: 'The input item has no binary data at all. Add a node that reads or downloads the image (for example Read/Write Files from Disk or HTTP Request with Response Format "File") before this node.';
		fail(ctx, itemIndex, `The input item has no binary property "${property}"`, fix);
	}
	const size = await binarySize(ctx, binary[property]);
	if (size !== undefined) checkImageSize(ctx, itemIndex, size, maxImageBytes);
	return {
		// The base64 body; a size n8n does not know counts as the largest image allowed.
		bodyBytes: Math.ceil((size ?? maxImageBytes) / 3) * 4,
		read: async () => {
			// Stored binaries keep only a reference in `.data` (filesystem, database, S3 modes): read the bytes.
			const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
			if (bytes.length === 0) {
				const fix = 'Check the node that produced the file: it holds 0 bytes.';
				fail(ctx, itemIndex, `The binary property "${property}" is empty`, fix);
			}
			checkImageSize(ctx, itemIndex, bytes.length, maxImageBytes);
			return bytes.toString('base64');
		},
	};
}

export function getOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject | null) ?? {};
}
