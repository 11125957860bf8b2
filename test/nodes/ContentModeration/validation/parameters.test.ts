/** The image input: checked at once, read only when the sender asks (after making room for it). */
import type { IExecuteFunctions } from 'n8n-workflow';

import { imageInput } from '@package/nodes/ContentModeration/validation/parameters';

const MB = 1024 * 1024;

/** A context with the given parameters and one input item holding `bytes` of binary data under `data`. */
function context(parameters: Record<string, unknown>, bytes = 0) {
	const reads: number[] = [];
	const ctx = {
		getNode: () => ({ name: 'Content Moderation' }),
		getNodeParameter: (name: string, _item: number, fallback: unknown) => parameters[name] ?? fallback,
		getInputData: () => [{ json: {}, binary: bytes > 0 ? { data: { data: 'stored', mimeType: 'image/png', bytes } } : {} }],
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
});
