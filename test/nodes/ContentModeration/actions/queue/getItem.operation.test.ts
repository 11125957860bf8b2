/**
 * Queue > Add Item / Get Item and Text > Get / Delete through n8n-core's engine against the mock.
 * Text moderations come from text queue items (the spec has no direct text submission).
 */
import type { IDataObject } from 'n8n-workflow';

import { binaryItem } from '../../../../helpers/engine';
import { PROFANE_TEXT, PROFANE_TEXT_FILTERED, SAFE_IMAGE_URL, SAFE_TEXT } from '../../../../../dev/mock/fixtures';
import { makePng } from '../../../../../dev/mock/png';
import { nodeError, output, useMock } from '../../../../helpers/nodeRun';

const mock = useMock({ processMs: 30 });

/** Waits (bounded) until the mock has processed everything queued. */
async function processed(): Promise<void> {
	await mock.service.whenIdle(5_000);
}

async function addTextItem(queueId: string, text: string): Promise<IDataObject> {
	const run = await mock.run({ resource: 'queue', operation: 'addItem', queueId, contentType: 'text', text });
	expect(run.status).toBe('success');
	return output(run)[0].json;
}

describe('Queue > Get Item', () => {
	it('reads an item back with the ids Add Item output (expressions from the previous node)', async () => {
		const added = await addTextItem('comments', PROFANE_TEXT);
		await processed();
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
