/** One read of a waiting item's result (webhook.ts readResultOnce), by the callbacks' one rule (inbound/readBack.ts). */
import { NodeApiError, type IDataObject, type INode } from 'n8n-workflow';

import { readResultOnce } from '@package/nodes/ContentModeration/actions/waitForCallback/webhook';
import type { ApiClient } from '@package/nodes/ContentModeration/transport/client';
import { imageResult } from '@test/helpers/callbackBodies';

const client = {} as ApiClient;
const node = { name: 'Content Moderation', type: 'x', typeVersion: 2, position: [0, 0], parameters: {} } as INode;
const apiError = (httpCode: string) => new NodeApiError(node, { message: 'no' }, { httpCode });

describe('readResultOnce', () => {
	it('returns the result, with the id it was read for when the answer has none', async () => {
		const { id: _id, ...result } = imageResult();
		const read = jest.fn(async () => ({ statusCode: 200, headers: {}, body: result }));
		expect(await readResultOnce(read, client, 'm-1', 3)).toEqual({ result: { id: 'm-1', ...result } });
		expect(read).toHaveBeenCalledWith(client, 'm-1', 3);
	});

	it('answers pending for a 202, a processing body and a 404, failed (no input named) for other errors', async () => {
		const answer = (statusCode: number, body: IDataObject) => async () => ({ statusCode, headers: {}, body });
		expect(await readResultOnce(answer(202, { status: 'processing' }), client, 'm', 0)).toEqual({ pending: true });
		expect(await readResultOnce(answer(200, { status: 'processing' }), client, 'm', 0)).toEqual({ pending: true });
		// A verdict without the fields the rules read is not a result yet (inbound/completion.ts).
		expect(await readResultOnce(answer(200, { isSafe: true }), client, 'm', 0)).toEqual({ pending: true });
		expect(await readResultOnce(answer(200, imageResult('m', { status: 'pending' })), client, 'm', 0)).toEqual({ pending: true });
		expect(await readResultOnce(async () => Promise.reject(apiError('404')), client, 'm', 0)).toEqual({ pending: true });
		expect(await readResultOnce(async () => Promise.reject(apiError('500')), client, 'secret-id', 0)).toEqual({ failed: 'reading a result failed (HTTP 500)' });
		expect(await readResultOnce(async () => Promise.reject(new Error('reset')), client, 'm', 0)).toEqual({ failed: 'reading a result failed (no answer)' });
	});
});
