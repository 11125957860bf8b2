/** http.ts: routing (404, 405, path ids). */
import { SAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { expectError, useMockApi } from './mock-api';

const { mock, api } = useMockApi();
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

describe('routing', () => {
	it('answers unknown routes 404 in plain text, as a web framework does (an unknown id is 404 JSON)', async () => {
		for (const [method, path] of [['GET', '/images'], ['POST', '//image'], ['GET', '/queues/main/items'], ['GET', `/api/v1/image/${NO_SUCH_ID}`]]) {
			const res = await api(method, path, { json: { image: SAFE_IMAGE_URL } });
			expect([res.status, res.headers['content-type'], res.body]).toEqual([404, 'text/plain', '404 Not Found']);
		}
	});

	it('answers a wrong method on a known path 405 with Allow', async () => {
		const put = await api('PUT', '/image', { json: { image: SAFE_IMAGE_URL } });
		expectError(put, 405, 'method_not_allowed');
		expect(put.headers.allow).toBe('POST');
		const post = await api('POST', `/text/${NO_SUCH_ID}`, { json: {} });
		expectError(post, 405, 'method_not_allowed');
		expect(post.headers.allow).toBe('GET, DELETE');
		expectError(await api('DELETE', `/image/${NO_SUCH_ID}`), 405, 'method_not_allowed');
	});

	it.each(['abc', 'n8n-credential-test', `${NO_SUCH_ID}0`, NO_SUCH_ID.replace(/-/g, ''), `{${NO_SUCH_ID}}`])(
		'refuses the id %s, not UUID-shaped, with 400 on every id path',
		async (id) => {
			expectError(await api('GET', `/image/${id}`), 400, 'invalid_path_parameter', 'id');
			expectError(await api('GET', `/text/${id}`), 400, 'invalid_path_parameter', 'id');
			expectError(await api('DELETE', `/text/${id}`), 400, 'invalid_path_parameter', 'id');
			expectError(await api('GET', `/queues/main/items/${id}`), 400, 'invalid_path_parameter', 'itemId');
		},
	);

	it('refuses queue ids under 3 characters and bad percent-encoding', async () => {
		expectError(await api('GET', `/queues/ab/items/${NO_SUCH_ID}`), 400, 'invalid_path_parameter', 'queueId');
		expectError(await api('GET', '/image/%E0%A4%A'), 400, 'invalid_path_parameter', 'id');
		// The queue id of POST /queues/{queueId} too, before anything is stored.
		const item = { json: { type: 'text', content: 'hello there' } };
		expectError(await api('POST', '/queues/ab', item), 400, 'invalid_path_parameter', 'queueId');
		expectError(await api('POST', '/queues/%20%20', item), 400, 'invalid_path_parameter', 'queueId');
		expect(mock.service.submissionLog).toHaveLength(0);
	});

	it('answers 404 for well-formed unknown ids (upper case too)', async () => {
		for (const id of [NO_SUCH_ID, NO_SUCH_ID.toUpperCase().replace('0000-4000', 'ABCD-4000')]) {
			expectError(await api('GET', `/image/${id}`), 404, 'not_found');
			expectError(await api('GET', `/text/${id}`), 404, 'not_found');
			expectError(await api('DELETE', `/text/${id}`), 404, 'not_found');
			expectError(await api('GET', `/queues/main/items/${id}`), 404, 'not_found');
		}
	});
});
