/** Queue > Get Item, through n8n-core's engine against the mock. */
import type { IDataObject } from 'n8n-workflow';

import { PROFANE_TEXT, PROFANE_TEXT_FILTERED } from '../../../../../dev/mock/fixtures';
import { addTextItem, nodeError, output, useMock, whenProcessed } from '../../../../helpers/nodeRun';

const mock = useMock({ processMs: 30 });

describe('Queue > Get Item', () => {
	it('reads an item back with the ids Add Item output (expressions from the previous node)', async () => {
		const added = await addTextItem(mock, 'comments', PROFANE_TEXT);
		await whenProcessed(mock);
		mock.service.reset();
		const run = await mock.run(
			{ resource: 'queue', operation: 'getItem', queueId: '={{ $json.queueId }}', itemId: '={{ $json.id }}' },
			[{ json: added }],
		);
		expect(run.status).toBe('success');
		const [item] = output(run);
		expect(item.json).toEqual(
			expect.objectContaining({ id: added.id, type: 'text', status: 'completed', content: PROFANE_TEXT }),
		);
		expect((item.json.moderation as IDataObject).filteredContent).toBe(PROFANE_TEXT_FILTERED);
		expect(mock.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /queues/comments/items/${added.id as string}`,
		]);
	});

	it('answers 404 with the service message for an unknown item', async () => {
		const run = await mock.run({ resource: 'queue', operation: 'getItem', queueId: 'comments', itemId: 'nope-123' });
		const error = nodeError(run);
		expect(error.httpCode).toBe('404');
		expect(error.message).toContain('No item nope-123 in queue comments');
	});
});
