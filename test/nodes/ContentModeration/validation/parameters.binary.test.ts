/**
 * The image from a binary property: sized without reading it, read only when the sender asks, refused with the
 * property named when missing or empty and with both sizes when over Max Image Size.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { imageInput } from '@package/nodes/ContentModeration/validation/parameters';

const MB = 1024 * 1024;
const NODE_ = { name: 'Content Moderation' } as INode;

interface Fake {
	parameters?: Record<string, unknown>;
	inputs?: INodeExecutionData[];
	metadata?: (id: string) => Promise<{ fileSize: number }>;
	buffer?: Buffer;
}

function context({ parameters = {}, inputs = [{ json: {} }], metadata, buffer = Buffer.alloc(0) }: Fake = {}) {
	const calls: unknown[][] = [];
	const ctx = {
		getNode: () => NODE_,
		getNodeParameter: (name: string, itemIndex: number, fallback: unknown) => {
			calls.push([name, itemIndex, fallback]);
			return name in parameters ? parameters[name] : fallback;
		},
		getInputData: () => inputs,
		helpers: {
			getBinaryMetadata: async (id: string) => {
				calls.push(['metadata', id]);
				if (!metadata) throw new Error('no metadata');
				return await metadata(id);
			},
			getBinaryDataBuffer: async (itemIndex: number, property: string) => {
				calls.push(['buffer', itemIndex, property]);
				return buffer;
			},
		},
	} as unknown as IExecuteFunctions;
	return { ctx, calls };
}

async function rejection(promise: Promise<unknown>): Promise<NodeOperationError> {
	const error = await promise.then(
		() => {
			throw new Error('no error thrown');
		},
		(caughtError: unknown) => caughtError,
	);
	expect(error).toBeInstanceOf(NodeOperationError);
	return error as NodeOperationError;
}

const png = (extra: IDataObject = {}) => ({
	data: 'stored',
	mimeType: 'image/png',
	...extra,
});

describe('imageInput: binary', () => {
	it('the property defaults to data, is trimmed, and the bytes are read from the item when asked', async () => {
		const bytes = Buffer.from('abcdef');
		const inputs = [{ json: {} }, { json: {}, binary: { photo: png({ bytes: 6 }) } }];
		const { ctx, calls } = context({
			parameters: { inputType: 'binary', binaryPropertyName: ' photo ' },
			inputs,
			buffer: bytes,
		});
		const input = await imageInput(ctx, 1, MB);
		expect(input.bodyBytes).toBe(8);
		expect(calls).toEqual([
			['inputType', 1, 'url'],
			['binaryPropertyName', 1, 'data'],
		]);
		await expect(input.read()).resolves.toBe(bytes.toString('base64'));
		expect(calls[2]).toEqual(['buffer', 1, 'photo']);

		const defaults = context({
			parameters: { inputType: 'binary' },
			inputs: [{ json: {}, binary: { data: png({ bytes: 3 }) } }],
		});
		expect((await imageInput(defaults.ctx, 0, MB)).bodyBytes).toBe(4);
	});

	it('a missing property lists the ones there are; no binary at all says to add a node that reads the image', async () => {
		const inputs = [{ json: {}, binary: { a: png(), b: png() } }];
		const other = await rejection(imageInput(context({ parameters: { inputType: 'binary' }, inputs }).ctx, 0, MB));
		expect(other.message).toBe('The input item has no binary property "data" [item 0]');
		expect(other.description).toBe('Set Binary Property to one of: a, b (see the Binary tab of the input item).');
		const blank = await rejection(
			imageInput(
				context({
					parameters: { inputType: 'binary', binaryPropertyName: '  ' },
					inputs,
				}).ctx,
				0,
				MB,
			),
		);
		expect(blank.message).toBe('The input item has no binary property "" [item 0]');
		const emptyName = [{ json: {}, binary: { '': png({ bytes: 3 }) } }];
		const unnamed = await rejection(
			imageInput(
				context({
					parameters: { inputType: 'binary', binaryPropertyName: '' },
					inputs: emptyName,
				}).ctx,
				0,
				MB,
			),
		);
		expect(unnamed.message).toBe('The input item has no binary property "" [item 0]');
		for (const noBinary of [[{ json: {} }], []]) {
			const none = await rejection(
				imageInput(context({ parameters: { inputType: 'binary' }, inputs: noBinary }).ctx, 0, MB),
			);
			expect(none.description).toMatch(
				/^The input item has no binary data at all\. Add a node that reads or downloads the image/,
			);
		}
		const inherited = await rejection(
			imageInput(
				context({
					parameters: { inputType: 'binary', binaryPropertyName: 'toString' },
					inputs,
				}).ctx,
				0,
				MB,
			),
		);
		expect(inherited.message).toBe('The input item has no binary property "toString" [item 0]');
	});

	it('the size comes from bytes, else the stored metadata, else the inline base64, else counts as Max Image Size', async () => {
		const sized = (binary: IDataObject, metadata?: Fake['metadata']) =>
			context({
				parameters: { inputType: 'binary' },
				inputs: [{ json: {}, binary: { data: binary } as never }],
				metadata,
			});

		expect((await imageInput(sized(png({ bytes: 300, id: 'x' })).ctx, 0, MB)).bodyBytes).toBe(400);

		const stored = sized(png({ id: 'fs:1' }), async () => ({ fileSize: 600 }));
		expect((await imageInput(stored.ctx, 0, MB)).bodyBytes).toBe(800);
		expect(stored.calls).toContainEqual(['metadata', 'fs:1']);

		const lost = sized(png({ id: 'fs:2' }));
		expect((await imageInput(lost.ctx, 0, 3000)).bodyBytes).toBe(4000);

		expect((await imageInput(sized({ data: 'aGVsbG8=', mimeType: 'image/png' }).ctx, 0, MB)).bodyBytes).toBe(8);
		expect((await imageInput(sized({ data: 'aA==', mimeType: 'image/png' }).ctx, 0, MB)).bodyBytes).toBe(4);
		expect((await imageInput(sized({ mimeType: 'image/png' }).ctx, 0, 30)).bodyBytes).toBe(40);
		expect((await imageInput(sized({ data: 'aGVsbG8=', mimeType: 'image/png' }).ctx, 0, 10)).bodyBytes).toBe(8);
	});

	it('a size over Max Image Size from the metadata or the inline base64 is refused before reading', async () => {
		const stored = context({
			parameters: { inputType: 'binary' },
			inputs: [{ json: {}, binary: { data: png({ id: 'fs:1' }) } }],
			metadata: async () => ({ fileSize: 2 * MB }),
		});
		expect((await rejection(imageInput(stored.ctx, 0, MB))).message).toBe(
			'The image is 2.0 MB, larger than Max Image Size (1 MB) [item 0]',
		);
		expect(stored.calls.some((call) => call[0] === 'buffer')).toBe(false);
		const inline = context({
			parameters: { inputType: 'binary' },
			inputs: [
				{
					json: {},
					binary: { data: { data: 'aGVsbG8=', mimeType: 'image/png' } },
				},
			],
		});
		await expect(imageInput(inline.ctx, 0, 4)).rejects.toThrow('larger than Max Image Size');
		const exact = context({
			parameters: { inputType: 'binary' },
			inputs: [{ json: {}, binary: { data: png({ bytes: 5 }) } }],
		});
		expect((await imageInput(exact.ctx, 0, 5)).bodyBytes).toBe(8);
	});

	it('the bytes read are checked again: empty or over Max Image Size is refused', async () => {
		const binary = { data: png({ bytes: 3 }) };
		const empty = context({
			parameters: { inputType: 'binary' },
			inputs: [{ json: {} }, { json: {}, binary }],
		});
		const error = await rejection((await imageInput(empty.ctx, 1, MB)).read());
		expect(error.message).toBe('The binary property "data" is empty [item 1]');
		expect(error.description).toBe('Check the node that produced the file: it holds 0 bytes.');
		const large = context({
			parameters: { inputType: 'binary' },
			inputs: [{ json: {}, binary }],
			buffer: Buffer.alloc(2 * MB),
		});
		await expect((await imageInput(large.ctx, 0, MB)).read()).rejects.toThrow(
			'The image is 2.0 MB, larger than Max Image Size (1 MB)',
		);
		const exact = context({
			parameters: { inputType: 'binary' },
			inputs: [{ json: {}, binary }],
			buffer: Buffer.alloc(MB),
		});
		await expect((await imageInput(exact.ctx, 0, MB)).read()).resolves.toHaveLength(Math.ceil(MB / 3) * 4);
	});
});
