/** Queue > Add Item (addItem.operation.ts) on a fake context and client: its fields and the body it sends. */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as addItem from '@package/nodes/ContentModeration/actions/queue/addItem.operation';
import { executeContext, fakeRun, rejection } from '@test/helpers/operationFakes';

const URL_ = 'https://img.test/cat.png';
const field = (name: string) => addItem.description.find((p) => p.name === name) as INodeProperties;
const option = (name: string) => (field('options').options as INodeProperties[]).find((o) => o.name === name);

describe('Queue > Add Item, its fields', () => {
	it('Content Type: Text by default or Image; the text field for Text, the image fields and Max Image Size for Image', () => {
		expect(field('queueId').required).toBe(true);
		expect(field('contentType')).toMatchObject({ type: 'options', default: 'text', noDataExpression: true });
		expect((field('contentType').options as INodePropertyOptions[]).map((o) => o.value)).toEqual(['text', 'image']);
		expect(field('text').displayOptions).toEqual({ show: { contentType: ['text'] } });
		for (const name of ['inputType', 'imageUrl', 'imageBase64', 'binaryPropertyName']) {
			expect(field(name).displayOptions?.show?.contentType).toEqual(['image']);
		}
		expect(option('maxImageSizeMb')?.displayOptions).toEqual({ show: { '/contentType': ['image'] } });
		expect(option('meta')).toMatchObject({ type: 'string', default: '' });
		expect(addItem.option.value).toBe('addItem');
		expect(addItem.toolDescription).toContain('queue');
	});
});

describe('Queue > Add Item, the request', () => {
	const send = async (parameters: IDataObject) => {
		const { run, sent } = fakeRun(() => ({ id: 'i-1', status: 'processing' }));
		const result = await addItem.execute.call(executeContext({ queueId: 'team a', ...parameters }), 1, run);
		return { result, sent, body: sent[0].body };
	};

	it('a text: POST /queues/{queueId} with type and content; the answer plus the queue id is the output', async () => {
		const { result, sent, body } = await send({ contentType: 'text', text: 'hello' });
		expect(sent.map((r) => [r.method, r.path, r.itemIndex])).toEqual([['POST', '/queues/team%20a', 1]]);
		expect(body).toStrictEqual({ type: 'text', content: 'hello' });
		expect(result).toEqual({ id: 'i-1', status: 'processing', queueId: 'team a' });
	});

	it('only the options that are set are sent, with the text or the image', async () => {
		const options = { meta: '{"post":7}', actorId: 'u-1' };
		const text = await send({ contentType: 'text', text: 'hello', options });
		expect(text.body).toStrictEqual({ type: 'text', content: 'hello', meta: { post: 7 }, metadata: { post: 7 }, actorId: 'u-1' });
		const image = await send({ contentType: 'image', imageUrl: URL_, options: { actorId: 'u-1' } });
		expect(image.body).toStrictEqual({ type: 'image', content: URL_, actorId: 'u-1' });
		expect((await send({ contentType: 'image', imageUrl: URL_ })).body).toStrictEqual({ type: 'image', content: URL_ });
	});

	it.each(['Image', 'video', 42])('a Content Type %j fails the item naming the field; nothing is read or sent', async (contentType) => {
		const { run, sent } = fakeRun();
		const parameters: Record<string, unknown> = { queueId: 'comments', contentType, text: 'hello' };
		const read = jest.fn((name: string, _itemIndex: number, fallback?: unknown) => (name in parameters ? parameters[name] : fallback));
		const error = await rejection(addItem.execute.call(executeContext({}, { getNodeParameter: read }), 0, run));
		expect(error.message).toBe(`Unknown Content Type "${String(contentType)}"`);
		expect(error.description).toMatch(/^Choose Text or Image/);
		expect(sent).toEqual([]);
		expect(read.mock.calls.map(([name]) => name)).not.toContain('text');
	});

	it('an empty Queue ID fails the item naming the field; nothing is sent', async () => {
		const { run, sent } = fakeRun();
		const error = await rejection(addItem.execute.call(executeContext({ queueId: '', text: 'hello' }), 0, run));
		expect(error.message).toContain('Queue ID');
		expect(sent).toEqual([]);
	});
});
