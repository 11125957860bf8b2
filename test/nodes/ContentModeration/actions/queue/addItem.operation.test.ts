/** Queue > Add Item, through n8n-core's engine against the mock. */
import { binaryItem } from '@test/helpers/engine';
import { SAFE_IMAGE_URL, SAFE_TEXT } from '@dev/mock/fixtures';
import { makePng } from '@dev/mock/png';
import { addTextItem, output, useMock } from '@test/helpers/nodeRun';

const mock = useMock({ processMs: 30 });

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
		// A JSON object written as Metadata goes out as that object, under both keys (itemBody.ts).
		expect(request.body).toEqual({ type: 'text', content: SAFE_TEXT, meta: { post: 7 }, metadata: { post: 7 }, actorId: 'user-1' });
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
		const item = await addTextItem(mock, 'team a/b', SAFE_TEXT);
		expect(mock.service.requests[0].path).toBe('/queues/team%20a%2Fb');
		expect(item.queueId).toBe('team a/b');
	});
});
