/** Each endpoint function sends one request: its method, its path (ids encoded), its body, item and secrets. */
import type { ApiClient, ApiRequest } from '@package/nodes/ContentModeration/transport/client';
import {
	addQueueItem,
	deleteText,
	getImage,
	getQueueItem,
	getText,
	moderateImage,
	moderateText,
} from '@package/nodes/ContentModeration/transport/endpoints';

function recordingClient(): { client: ApiClient; sent: ApiRequest[] } {
	const sent: ApiRequest[] = [];
	const client = {
		request: async (request: ApiRequest) => {
			sent.push(request);
			return { statusCode: 200, headers: {}, body: {} };
		},
	} as unknown as ApiClient;
	return { client, sent };
}

describe('the endpoints', () => {
	it('build each method and path, encoding the ids', async () => {
		const { client, sent } = recordingClient();
		await moderateImage(client, { image: 'u' }, 1, ['s']);
		await getImage(client, 'a/b', 2);
		await moderateText(client, { text: 't' }, 3, ['s2']);
		await getText(client, 'id 1', 4);
		await deleteText(client, 'id?1', 5);
		await addQueueItem(client, 'q/1', { type: 'text' }, 6);
		await getQueueItem(client, 'q 1', 'i#1', 7);
		expect(sent).toEqual([
			{ method: 'POST', path: '/image', body: { image: 'u' }, itemIndex: 1, secrets: ['s'] },
			{ method: 'GET', path: '/image/a%2Fb', itemIndex: 2 },
			{ method: 'POST', path: '/text', body: { text: 't' }, itemIndex: 3, secrets: ['s2'] },
			{ method: 'GET', path: '/text/id%201', itemIndex: 4 },
			{ method: 'DELETE', path: '/text/id%3F1', itemIndex: 5 },
			{ method: 'POST', path: '/queues/q%2F1', body: { type: 'text' }, itemIndex: 6 },
			{ method: 'GET', path: '/queues/q%201/items/i%231', itemIndex: 7 },
		]);
	});
});
