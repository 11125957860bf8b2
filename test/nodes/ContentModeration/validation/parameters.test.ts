/** The image input: checked at once, read only when the sender asks (after making room for it). */
import type { IExecuteFunctions } from 'n8n-workflow';

import { imageInput } from '@package/nodes/ContentModeration/validation/parameters';

const MB = 1024 * 1024;

/** A context with the given parameters and one input item holding `bytes` of binary data under `data` (recorded as `recorded`). */
function context(parameters: Record<string, unknown>, bytes = 0, recorded = bytes) {
	const reads: number[] = [];
	const ctx = {
		getNode: () => ({ name: 'Content Moderation' }),
		getNodeParameter: (name: string, _item: number, fallback: unknown) => parameters[name] ?? fallback,
		getInputData: () => [{ json: {}, binary: recorded > 0 ? { data: { data: 'stored', mimeType: 'image/png', bytes: recorded } } : {} }],
		helpers: {
			getBinaryDataBuffer: async (itemIndex: number) => (reads.push(itemIndex), Buffer.alloc(bytes, 1)),
		},
	} as unknown as IExecuteFunctions;
	return { ctx, reads };
}

describe('imageInput', () => {
	it('a URL or base64 counts its length: every body takes its room in the byte budget', async () => {
		const url = await imageInput(context({ inputType: 'url', imageUrl: 'https://img.test/a.png' }).ctx, 0, 10 * MB);
		expect(url.bodyBytes).toBe('https://img.test/a.png'.length);
		await expect(url.read()).resolves.toBe('https://img.test/a.png');
		const base64 = await imageInput(context({ inputType: 'base64', imageBase64: 'aGVsbG8=' }).ctx, 0, 10 * MB);
		expect(base64.bodyBytes).toBe('aGVsbG8='.length);
		await expect(base64.read()).resolves.toBe('aGVsbG8=');
	});

	it('a binary image is sized from its metadata and read only when asked, as base64', async () => {
		const { ctx, reads } = context({ inputType: 'binary', binaryPropertyName: 'data' }, 3000);
		const input = await imageInput(ctx, 0, 10 * MB);
		expect(input.bodyBytes).toBe(4000);
		expect(reads).toEqual([]);
		await expect(input.read()).resolves.toBe(Buffer.alloc(3000, 1).toString('base64'));
		expect(reads).toEqual([0]);
	});

	it('a binary image over Max Image Size is refused before it is read', async () => {
		const { ctx, reads } = context({ inputType: 'binary', binaryPropertyName: 'data' }, 2 * MB);
		await expect(imageInput(ctx, 0, MB)).rejects.toThrow('larger than Max Image Size (1 MB)');
		expect(reads).toEqual([]);
	});

	it('a binary image of exactly Max Image Size is accepted, when recorded and when read', async () => {
		const { ctx } = context({ inputType: 'binary', binaryPropertyName: 'data' }, MB);
		const input = await imageInput(ctx, 0, MB);
		await expect(input.read()).resolves.toBe(Buffer.alloc(MB, 1).toString('base64'));
	});

	it('a binary image larger than its recorded size is checked again when read: over Max Image Size it is refused', async () => {
		const { ctx, reads } = context({ inputType: 'binary', binaryPropertyName: 'data' }, 2 * MB, 1000);
		const input = await imageInput(ctx, 0, MB);
		expect(input.bodyBytes).toBe(Math.ceil(1000 / 3) * 4);
		await expect(input.read()).rejects.toThrow('The image is 2.0 MB, larger than Max Image Size (1 MB)');
		expect(reads).toEqual([0]);
	});

	it('a binary image that reads as 0 bytes is refused, whatever its recorded size', async () => {
		const { ctx } = context({ inputType: 'binary', binaryPropertyName: 'data' }, 0, 1000);
		const input = await imageInput(ctx, 0, MB);
		await expect(input.read()).rejects.toThrow('The binary property "data" is empty');
	});
});
