/**
 * Queue > Add Item / Get Item and Text > Get / Delete through n8n-core's engine against the mock.
 * Text moderations come from text queue items (the spec has no direct text submission).
 */
import type { IDataObject } from 'n8n-workflow';

import { binaryItem } from '../helpers/engine';
import { PROFANE_TEXT, PROFANE_TEXT_FILTERED, SAFE_IMAGE_URL, SAFE_TEXT } from '../../dev/mock/fixtures';
import { makePng } from '../../dev/mock/png';
import { nodeError, output, useMock } from './setup';

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

describe('Queue > Add Item', () => {
	it('adds a text with meta and actor id; outputs the answer plus queueId', async () => {
		const run = await mock.run({
			resource: 'queue',
			operation: 'addItem',
			queueId: 'comments',
			contentType: 'text',
			text: SAFE_TEXT,
			options: { meta: '{"post":7}', actorId: 'user-1' },
		});
		expect(run.status).toBe('success');
		const [item] = output(run);
		expect(item.json).toEqual({ id: expect.any(String), status: 'processing', queueId: 'comments' });
		expect(item.pairedItem).toEqual({ item: 0 });
		const [request] = mock.service.requests;
		expect(request.path).toBe('/queues/comments');
		// meta is a string for queue items (spec 4.3): sent as typed, not parsed.
		expect(request.body).toEqual({ type: 'text', content: SAFE_TEXT, meta: '{"post":7}', actorId: 'user-1' });
	});

	it('adds images from a URL and from a binary file; options left out when unset', async () => {
		const bytes = makePng('cat');
		const url = await mock.run({
			resource: 'queue',
			operation: 'addItem',
			queueId: 'images',
			contentType: 'image',
			imageUrl: SAFE_IMAGE_URL,
		});
		const binary = await mock.run(
			{ resource: 'queue', operation: 'addItem', queueId: 'images', contentType: 'image', inputType: 'binary' },
			[binaryItem(bytes)],
		);
		expect([url.status, binary.status]).toEqual(['success', 'success']);
		expect(mock.service.requests.map((r) => r.body)).toEqual([
			{ type: 'image', content: SAFE_IMAGE_URL },
			{ type: 'image', content: bytes.toString('base64') },
		]);
	});

	it('URL-encodes the queue id', async () => {
		const item = await addTextItem('team a/b', SAFE_TEXT);
		expect(mock.service.requests[0].path).toBe('/queues/team%20a%2Fb');
		expect(item.queueId).toBe('team a/b');
	});
});

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
			expect.objectContaining({ id: added.id, type: 'text', status: 'pending', content: PROFANE_TEXT }),
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

describe('Text > Get and Text > Delete', () => {
	it('reads a text moderation, deletes it, then reading it gives 404', async () => {
		const added = await addTextItem('texts', PROFANE_TEXT);
		await processed();
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
