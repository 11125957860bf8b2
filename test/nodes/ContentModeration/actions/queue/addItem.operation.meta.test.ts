/** Queue > Add Item's metadata, through n8n-core's engine against the mock. */
import type { IDataObject } from 'n8n-workflow';

import { SAFE_TEXT } from '@dev/mock/fixtures';
import { output, useMock, whenProcessed } from '@test/helpers/nodeRun';

const mock = useMock({ processMs: 20 });

const addItem = (meta: string) => ({ resource: 'queue', operation: 'addItem', queueId: 'reviews', contentType: 'text', text: SAFE_TEXT, options: { meta } });
const sentBody = () => mock.service.requests.filter((r) => r.method === 'POST')[0].body as IDataObject;

describe('Queue > Add Item metadata', () => {
	it('a JSON object written is sent as that object under meta and metadata', async () => {
		const run = await mock.run(addItem('{"postId": "p-17", "n": 2}'));
		expect(run.status).toBe('success');
		expect(sentBody()).toEqual({ type: 'text', content: SAFE_TEXT, meta: { postId: 'p-17', n: 2 }, metadata: { postId: 'p-17', n: 2 } });
	});

	it.each(['order A-17', '42', '[1, 2]'])('text that is not a JSON object (%s) stays text', async (meta) => {
		const run = await mock.run(addItem(meta));
		expect(run.status).toBe('success');
		expect(sentBody()).toMatchObject({ meta, metadata: meta });
	});

	it.each(['meta', 'metadata'] as const)('the object comes back on the item when the service reads only "%s"', async (metadataKey) => {
		mock.service.configure({ metadataKey });
		try {
			const added = await mock.run(addItem('{"postId": "p-17"}'));
			const id = String(output(added)[0].json.id);
			await whenProcessed(mock);
			const read = await mock.run({ resource: 'queue', operation: 'getItem', queueId: 'reviews', itemId: id });
			expect(output(read)[0].json.meta).toEqual({ postId: 'p-17' });
		} finally {
			mock.service.configure({ metadataKey: 'both' });
		}
	});
});
