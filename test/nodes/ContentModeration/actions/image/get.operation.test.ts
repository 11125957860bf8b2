/** Image > Get through n8n-core's engine against the mock service. */
import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { nodeError, output, useMock } from '@test/helpers/nodeRun';

const mock = useMock({ processMs: 20 });

const UNKNOWN_ID = '9b2f7c1e-4d3a-4b6e-8f10-2a3b4c5d6e7f';

describe('Image > Get', () => {
	it('reads a finished moderation by id and adds the id the result lacks (the API reference has none)', async () => {
		const first = await mock.run({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, mode: 'deferred' });
		const id = output(first)[0].json.id as string;
		expect(id).toMatch(/^[0-9a-f-]{36}$/);
		await mock.service.whenIdle(5_000);
		mock.service.reset();
		const run = await mock.run({ resource: 'image', operation: 'get', imageId: id });
		expect(run.status).toBe('success');
		expect(mock.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /image/${id}`]);
		// What the service answered has no id; the node's output has the one asked for.
		const answered = await fetch(`${mock.service.url}/image/${id}`, { headers: { authorization: `Bearer ${mock.service.token}` } });
		expect(await answered.json()).not.toHaveProperty('id');
		const json = output(run)[0].json;
		expect(json.id).toBe(id);
		expect(typeof json.isSafe).toBe('boolean');
	});

	it('URL-encodes the id in the path (a malformed id is the service\'s 400)', async () => {
		const run = await mock.run({ resource: 'image', operation: 'get', imageId: 'a b/c?d' });
		expect(mock.service.requests[0].path).toBe('/image/a%20b%2Fc%3Fd');
		expect(nodeError(run).httpCode).toBe('400');
	});

	it('a well-formed unknown id: 404 with the service message', async () => {
		const run = await mock.run({ resource: 'image', operation: 'get', imageId: UNKNOWN_ID });
		const error = nodeError(run);
		expect(error.httpCode).toBe('404');
		expect(error.message).toContain(UNKNOWN_ID);
	});
});
