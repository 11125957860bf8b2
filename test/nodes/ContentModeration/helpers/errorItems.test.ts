/** Error items (continueOnFail) and the errors the node throws on. */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError, errorItem, operationError } from '@package/nodes/ContentModeration/helpers/errorItems';
import { contentModerationNode } from '@test/helpers/fixtures';

const node = contentModerationNode;

describe('error mapping', () => {
	it('errorItem keeps message, description and HTTP status, paired to the item, only n8n error keys', () => {
		const apiError = new NodeApiError(node, { message: 'x' }, {
			message: 'The Content Moderation Service answered 404: gone',
			description: 'Check the id',
			httpCode: '404',
		});
		expect(errorItem(apiError, 3)).toEqual({
			json: {
				error: 'The Content Moderation Service answered 404: gone',
				details: { description: 'Check the id', httpCode: '404' },
			},
			pairedItem: { item: 3 },
		});
	});

	it('errorItem of a plain error or a non-error value', () => {
		expect(errorItem(new Error('boom'), 0)).toEqual({ json: { error: 'boom' }, pairedItem: { item: 0 } });
		expect(errorItem(undefined, 1)).toEqual({ json: { error: 'Unknown error' }, pairedItem: { item: 1 } });
	});

	it('errorItem treats an empty message, description or HTTP status as absent', () => {
		expect(errorItem(new Error(''), 2)).toEqual({ json: { error: 'Unknown error' }, pairedItem: { item: 2 } });
		// toStrictEqual: no `details` key holding '' (nothing to read), and no empty `details`.
		expect(errorItem({ message: 'boom', description: '', httpCode: '' }, 0).json).toStrictEqual({ error: 'boom' });
		expect(errorItem({ message: 'boom', description: 'Check the id', httpCode: '' }, 0).json).toStrictEqual({
			error: 'boom',
			details: { description: 'Check the id' },
		});
		expect(errorItem({ message: 'boom', description: '', httpCode: '500' }, 0).json).toStrictEqual({
			error: 'boom',
			details: { httpCode: '500' },
		});
	});

	it('asNodeError keeps node errors and wraps anything else with the item index', () => {
		const ctx = { getNode: () => node } as never;
		const operational = new NodeOperationError(node, 'bad', { itemIndex: 2 });
		expect(asNodeError(ctx, operational, 2)).toBe(operational);
		// An API error keeps its class and HTTP status (a NodeOperationError would not carry them).
		const api = new NodeApiError(node, { message: 'x' }, { message: 'gone', httpCode: '404' });
		expect(asNodeError(ctx, api, 2)).toBe(api);
		const wrapped = asNodeError(ctx, new TypeError('oops'), 4);
		expect(wrapped).toBeInstanceOf(NodeOperationError);
		expect(wrapped.message).toBe('oops');
		expect(wrapped.context.itemIndex).toBe(4);
	});

	it('operationError names the item, the message and the fix, and becomes that error item', () => {
		const error = operationError(node, 5, 'Image URL is not a URL', 'Enter an http(s) URL.');
		expect(error).toBeInstanceOf(NodeOperationError);
		expect([error.message, error.description, error.context.itemIndex]).toEqual(['Image URL is not a URL', 'Enter an http(s) URL.', 5]);
		expect(errorItem(error, 5).json).toEqual({ error: 'Image URL is not a URL', details: { description: 'Enter an http(s) URL.' } });
	});
});
