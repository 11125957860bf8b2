/** Text > Get, through n8n-core's engine against the mock (a text moderation from a processed queue item). */
import type { IDataObject } from 'n8n-workflow';

import { PROFANE_TEXT, PROFANE_TEXT_FILTERED } from '@dev/mock/fixtures';
import { addTextItem, nodeError, output, useMock, whenProcessed } from '@test/helpers/nodeRun';

const mock = useMock({ processMs: 30 });

describe('Text > Get and Text > Delete', () => {
	it('reads a text moderation, deletes it, then reading it gives 404', async () => {
		const added = await addTextItem(mock, 'texts', PROFANE_TEXT);
		await whenProcessed(mock);
		const read = await mock.run({ resource: 'queue', operation: 'getItem', queueId: 'texts', itemId: added.id as string });
		const textId = (output(read)[0].json.moderation as IDataObject).id as string;
		mock.service.reset();

		const get = await mock.run({ resource: 'text', operation: 'get', textId });
		expect(get.status).toBe('success');
		expect(output(get)[0].json).toEqual(
			expect.objectContaining({ id: textId, content: PROFANE_TEXT, filteredContent: PROFANE_TEXT_FILTERED }),
		);

		const del = await mock.run({ resource: 'text', operation: 'delete', textId });
		expect(del.status).toBe('success');
		// The node's own confirmation; that the service really deleted it is the 404 below.
		expect(output(del)[0].json).toEqual({ id: textId, deleted: true });
		expect(output(del)[0].pairedItem).toEqual({ item: 0 });

		const again = await mock.run({ resource: 'text', operation: 'get', textId });
		expect(nodeError(again).httpCode).toBe('404');
		expect(mock.service.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`GET /text/${textId} 200`,
			`DELETE /text/${textId} 200`,
			`GET /text/${textId} 404`,
		]);
	});
});
