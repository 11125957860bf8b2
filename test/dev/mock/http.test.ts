/** http.ts: routing (404, 405, path ids). */
import { SAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { expectError, useMockApi } from './mock-api';

const { mock, api } = useMockApi();

describe('routing', () => {
	it('answers unknown routes 404 JSON', async () => {
		expectError(await api('GET', '/images'), 404, 'not_found');
		expectError(await api('POST', '//image', { json: { image: SAFE_IMAGE_URL } }), 404, 'not_found');
		expectError(await api('GET', '/queues/main/items'), 404, 'not_found');
	});

	it('answers a wrong method on a known path 405 with Allow', async () => {
		const put = await api('PUT', '/image', { json: { image: SAFE_IMAGE_URL } });
		expectError(put, 405, 'method_not_allowed');
		expect(put.headers.allow).toBe('POST');
		const post = await api('POST', '/text/abcdef', { json: {} });
		expectError(post, 405, 'method_not_allowed');
		expect(post.headers.allow).toBe('GET, DELETE');
		expectError(await api('DELETE', '/image/abcdef'), 405, 'method_not_allowed');
	});

	it('refuses ids under 3 characters where the spec sets a minimum', async () => {
		expectError(await api('GET', '/image/ab'), 400, 'invalid_path_parameter', 'id');
		expectError(await api('GET', '/text/ab'), 400, 'invalid_path_parameter', 'id');
		expectError(await api('DELETE', '/text/ab'), 400, 'invalid_path_parameter', 'id');
		expectError(await api('GET', '/queues/ab/items/abcdef'), 400, 'invalid_path_parameter', 'queueId');
		expectError(await api('GET', '/queues/main/items/ab'), 400, 'invalid_path_parameter', 'itemId');
		expectError(await api('GET', '/image/%E0%A4%A'), 400, 'invalid_path_parameter', 'id');
		// The queue id of POST /queues/{queueId} too, before anything is stored.
		const item = { json: { type: 'text', content: 'hello there' } };
		expectError(await api('POST', '/queues/ab', item), 400, 'invalid_path_parameter', 'queueId');
		expectError(await api('POST', '/queues/%20%20', item), 400, 'invalid_path_parameter', 'queueId');
		expect(mock.service.submissionLog).toHaveLength(0);
	});

	it('answers 404 for unknown ids', async () => {
		expectError(await api('GET', '/image/does-not-exist'), 404, 'not_found');
		expectError(await api('GET', '/text/does-not-exist'), 404, 'not_found');
		expectError(await api('DELETE', '/text/does-not-exist'), 404, 'not_found');
		expectError(await api('GET', '/queues/main/items/does-not-exist'), 404, 'not_found');
	});
});
