/** Wait for Callback's webhook description and webhook() (index.ts): which endpoint a resource reads back from. */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { waitCallbackWebhook, webhook } from '@package/nodes/ContentModeration/actions/waitForCallback/index';
import { itemKey } from '@package/nodes/ContentModeration/actions/waitForCallback/urls';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { fakeWebhook } from '@test/helpers/fakeWebhook';

const SECRET = 'run-secret-0003';

beforeEach(() => resetProcessState());

test('a restart webhook at POST …/callback, answered with the node’s own response', () => {
	expect(waitCallbackWebhook).toEqual({
		name: 'default',
		httpMethod: 'POST',
		path: 'callback',
		restartWebhook: true,
		responseMode: 'onReceived',
		responseData: '',
	});
});

test.each([
	[{ resource: 'image' }, '/image/m-0'],
	[{ resource: 'text' }, '/text/m-0'],
	[{}, '/image/m-0'],
	[{ resource: 'other' }, '/image/m-0'],
] as Array<[IDataObject, string]>)('parameters %j: the result is read from %s', async (parameters, path) => {
	const state = { secret: SECRET, items: [{ id: 'm-0' }], deadline: '2031-01-01T00:00:00.000Z' };
	const fake = fakeWebhook({
		credential: {},
		parameters,
		query: { item: '0', key: itemKey(SECRET, 0) },
		body: { event: 'moderation.completed', data: { id: 'm-0', status: 'processing' } },
		evaluate: (expression) => (expression.includes('.context[') ? state : []),
		answer: (_: IHttpRequestOptions) => ({ statusCode: 202, body: {} }),
	});
	await webhook.call(fake.ctx);
	expect(fake.requests.map((r) => new URL(String(r.url)).pathname)).toEqual([path]);
	expect(fake.written[0].status).toBe(503);
});
