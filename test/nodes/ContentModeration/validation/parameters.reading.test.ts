/**
 * Reading the node's parameters for an item: the value as the service takes it, or a NodeOperationError naming the
 * field and the item.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { InputProblem } from '@package/nodes/ContentModeration/validation/checks';
import {
	ensure,
	getActorId,
	getId,
	getOptions,
	getText,
	imageInput,
	withImage,
} from '@package/nodes/ContentModeration/validation/parameters';

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

function caught(run: () => unknown): NodeOperationError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('no error thrown');
}

describe('ensure', () => {
	it('returns a checked value, and throws a problem as the node error of the item', () => {
		const { ctx } = context();
		expect(ensure(ctx, 0, 'value')).toBe('value');
		const error = caught(() => ensure(ctx, 3, new InputProblem('The Text is empty', 'Enter the text.')));
		expect(error.message).toBe('The Text is empty [item 3]');
		expect(error.description).toBe('Enter the text.');
		expect(error.context.itemIndex).toBe(3);
		expect(error.node).toBe(NODE_);
	});
});

describe('getId', () => {
	it('reads the parameter of the item, trimmed; empty or absent is refused with the field name', () => {
		const { ctx, calls } = context({ parameters: { jobId: ' job-12345\n' } });
		expect(getId(ctx, 2, 'jobId', 'Job ID')).toBe('job-12345');
		expect(calls).toEqual([['jobId', 2, '']]);
		expect(caught(() => getId(context().ctx, 1, 'jobId', 'Job ID')).message).toBe('The Job ID is empty [item 1]');
		expect(getId(context({ parameters: { jobId: 1234567890123 } }).ctx, 0, 'jobId', 'Job ID')).toBe('1234567890123');
	});
});

describe('getText', () => {
	it('sends the text as typed, and refuses a blank or absent one with a hint', () => {
		const { ctx, calls } = context({ parameters: { text: '  hello \n' } });
		expect(getText(ctx, 1)).toBe('  hello \n');
		expect(calls).toEqual([['text', 1, '']]);
		for (const parameters of [{}, { text: ' \n ' }]) {
			const error = caught(() => getText(context({ parameters }).ctx, 0));
			expect(error.message).toBe('The Text is empty [item 0]');
			expect(error.description).toBe(
				'Enter the text to moderate, or map it from a previous node (for example {{ $json.comment }}).',
			);
		}
		expect(caught(() => getText(context({ parameters: { text: 5 } }).ctx, 0)).message).toMatch(
			/^The Text must be a text,/,
		);
	});
});

describe('getActorId', () => {
	it('trimmed text or a whole number; empty or absent is not sent; anything else refused', () => {
		const { ctx } = context();
		expect(getActorId(ctx, 0, { actorId: ' user-7 ' })).toBe('user-7');
		expect(getActorId(ctx, 0, { actorId: 42 })).toBe('42');
		expect(getActorId(ctx, 0, { actorId: '  ' })).toBeUndefined();
		expect(getActorId(ctx, 0, {})).toBeUndefined();
		const error = caught(() => getActorId(ctx, 4, { actorId: { id: 1 } }));
		expect(error.message).toMatch(/^The Actor ID must be a text or a whole number, .* \[item 4\]$/);
		expect(error.description).toContain('{{ $json.user.id }}');
	});
});

describe('getOptions', () => {
	it('the item options, or none', () => {
		const { ctx, calls } = context({
			parameters: { options: { actorId: 'a' } },
		});
		expect(getOptions(ctx, 2)).toEqual({ actorId: 'a' });
		expect(calls).toEqual([['options', 2, {}]]);
		expect(getOptions(context().ctx, 0)).toEqual({});
		expect(getOptions(context({ parameters: { options: null } }).ctx, 0)).toEqual({});
	});
});

describe('withImage', () => {
	it('keeps the image size and builds the body around the image when read', async () => {
		let reads = 0;
		const body = withImage(
			{ bodyBytes: 12, read: async () => (reads++, 'IMG') },
			(image: string): IDataObject => ({ image }),
		);
		expect(body.bodyBytes).toBe(12);
		expect(reads).toBe(0);
		await expect(body.read()).resolves.toEqual({ image: 'IMG' });
		expect(reads).toBe(1);
	});
});

describe('imageInput: URL and base64', () => {
	it('Input Type defaults to Image URL; the URL is trimmed and checked', async () => {
		const { ctx, calls } = context({
			parameters: { imageUrl: ' https://img.test/a.png ' },
		});
		const input = await imageInput(ctx, 1, MB);
		expect(input.bodyBytes).toBe('https://img.test/a.png'.length);
		await expect(input.read()).resolves.toBe('https://img.test/a.png');
		expect(calls).toEqual([
			['inputType', 1, 'url'],
			['imageUrl', 1, ''],
		]);
		const error = await rejection(imageInput(context({ parameters: { inputType: 'url' } }).ctx, 2, MB));
		expect(error.message).toBe('The Image URL is empty [item 2]');
	});

	it('base64 is normalized and its decoded size checked against Max Image Size, equal allowed', async () => {
		// 'aGVsbG8=' decodes to 5 bytes, 'aA==' to 1, 'aGVs' to 3.
		for (const [text, bytes] of [
			['aGVsbG8=', 5],
			['aA==', 1],
			['aGVs', 3],
		] as const) {
			const ok = await imageInput(
				context({
					parameters: { inputType: 'base64', imageBase64: ` ${text}\n` },
				}).ctx,
				0,
				bytes,
			);
			await expect(ok.read()).resolves.toBe(text);
			expect(ok.bodyBytes).toBe(text.length);
			const error = await rejection(
				imageInput(context({ parameters: { inputType: 'base64', imageBase64: text } }).ctx, 1, bytes - 1),
			);
			expect(error.message).toMatch(/^The image is 0\.0 MB, larger than Max Image Size \(0 MB\) \[item 1\]$/);
		}
	});

	it('refusing a large image names both sizes in MB and says what to do', async () => {
		const base64 = Buffer.alloc(3 * MB).toString('base64');
		const error = await rejection(
			imageInput(context({ parameters: { inputType: 'base64', imageBase64: base64 } }).ctx, 0, 2 * MB),
		);
		expect(error.message).toBe('The image is 3.0 MB, larger than Max Image Size (2 MB) [item 0]');
		expect(error.description).toBe(
			'Nothing was sent. Resize or compress the image first (for example with the Edit Image node), or raise Request Options > Max Image Size (MB) if the service accepts larger images.',
		);
	});

	it('invalid base64 and an unknown Input Type are refused', async () => {
		const invalid = await rejection(
			imageInput(context({ parameters: { inputType: 'base64', imageBase64: 'abc' } }).ctx, 0, MB),
		);
		expect(invalid.message).toBe('The Image (Base64) is not valid base64 [item 0]');
		const unknown = await rejection(imageInput(context({ parameters: { inputType: 'file' } }).ctx, 3, MB));
		expect(unknown.message).toBe('Unknown Input Type "file" [item 3]');
		expect(unknown.description).toBe('Choose Image URL, Base64 or Binary File as Input Type.');
	});
});
