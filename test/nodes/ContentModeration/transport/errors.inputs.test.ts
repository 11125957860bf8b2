/**
 * Input checks through n8n-core's engine: a NodeOperationError naming the field, the item and a fix,
 * before any request.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { expectNoToken, nodeError, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';

const mock = useMock();

interface BadInput {
	name: string;
	parameters: INodeParameters;
	items?: Parameters<typeof mock.run>[1];
	/** Text the message must contain (names the field). */
	message: string;
}

const badInputs: BadInput[] = [
	{
		name: 'image id shorter than 3 characters',
		parameters: { resource: 'image', operation: 'get', imageId: 'ab' },
		message: 'The Image ID "ab" is too short',
	},
	{
		name: 'empty image id',
		parameters: { resource: 'image', operation: 'get', imageId: '  ' },
		message: 'The Image ID is empty',
	},
	{
		name: 'text id shorter than 3 characters (get)',
		parameters: { resource: 'text', operation: 'get', textId: 'x' },
		message: 'The Text ID "x" is too short',
	},
	{
		name: 'text id shorter than 3 characters (delete)',
		parameters: { resource: 'text', operation: 'delete', textId: '12' },
		message: 'The Text ID "12" is too short',
	},
	{
		name: 'queue item id shorter than 3 characters',
		parameters: { resource: 'queue', operation: 'getItem', queueId: 'comments', itemId: 'ab' },
		message: 'The Item ID "ab" is too short',
	},
	{
		name: 'image URL that is not http(s)',
		parameters: { resource: 'image', operation: 'moderate', imageUrl: 'ftp://example.com/a.jpg' },
		message: 'The Image URL must be an http(s) URL, not ftp',
	},
	{
		name: 'image URL that is not a URL',
		parameters: { resource: 'image', operation: 'moderate', imageUrl: 'cat.jpg' },
		message: 'The Image URL "cat.jpg" is not a valid URL',
	},
	{
		name: 'base64 that does not decode',
		parameters: { resource: 'image', operation: 'moderate', inputType: 'base64', imageBase64: 'not*base64!' },
		message: 'The Image (Base64) is not valid base64',
	},
	{
		name: 'missing binary property',
		parameters: { resource: 'image', operation: 'moderate', inputType: 'binary', binaryPropertyName: 'photo' },
		message: 'The input item has no binary property "photo"',
	},
	{
		name: 'meta that is not valid JSON',
		parameters: {
			resource: 'image',
			operation: 'moderate',
			imageUrl: SAFE_IMAGE_URL,
			options: { meta: '{orderId: A-17}' },
		},
		message: 'The Metadata (JSON) is not valid JSON',
	},
	{
		name: 'callback URL that is not http(s)',
		parameters: {
			resource: 'image',
			operation: 'moderate',
			imageUrl: SAFE_IMAGE_URL,
			mode: 'deferred',
			options: { callbackUrl: 'javascript:alert(1)' },
		},
		message: 'The Callback URL must be an http(s) URL',
	},
	{
		// A literal empty required field is refused by n8n itself; an expression can still produce one.
		name: 'empty queue id',
		parameters: {
			resource: 'queue',
			operation: 'addItem',
			queueId: '={{ $json.queue }}',
			contentType: 'text',
			text: 'hello',
		},
		items: [{ json: { queue: '' } }],
		message: 'The Queue ID is empty',
	},
	{
		name: 'queue id shorter than 3 characters (add item)',
		parameters: { resource: 'queue', operation: 'addItem', queueId: 'q1', contentType: 'text', text: 'hello' },
		message: 'The Queue ID "q1" is too short',
	},
	{
		name: 'empty text',
		parameters: { resource: 'queue', operation: 'addItem', queueId: 'comments', contentType: 'text', text: ' ' },
		message: 'The Text is empty',
	},
	{
		name: 'queue image with a missing binary property',
		parameters: {
			resource: 'queue',
			operation: 'addItem',
			queueId: 'comments',
			contentType: 'image',
			inputType: 'binary',
		},
		message: 'The input item has no binary property "data"',
	},
];

describe('input checks: a NodeOperationError naming the field, the item and a fix, before any request', () => {
	it.each(badInputs)('$name', async ({ parameters, items, message }) => {
		const run = await mock.run(parameters, items);
		expect(run.status).toBe('error');
		const error = nodeError(run);
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toContain(message);
		expect(error.message).toContain('[item 0]');
		expect(error.context?.itemIndex).toBe(0);
		expect(error.description).toEqual(expect.any(String));
		expect((error.description ?? '').length).toBeGreaterThan(20);
		expect(mock.service.requests).toHaveLength(0);
		expectNoToken(run, SECRET_TOKEN);
	});

	it('names the failing item when it is not the first', async () => {
		const run = await mock.run({ resource: 'image', operation: 'moderate', imageUrl: '={{ $json.url }}' }, [
			{ json: { url: SAFE_IMAGE_URL } },
			{ json: { url: 'ftp://example.com/x.png' } },
		]);
		const error = nodeError(run);
		expect(error.message).toContain('[item 1]');
		expect(error.context?.itemIndex).toBe(1);
	});
});
