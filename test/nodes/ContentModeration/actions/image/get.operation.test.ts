/** Image > Get through n8n-core's engine against the mock service. */
import { SAFE_IMAGE_URL } from '../../../../../dev/mock/fixtures';
import { nodeError, output, useMock } from '../../../../helpers/nodeRun';

const mock = useMock();

describe('Image > Get', () => {
	it('reads a finished moderation by id', async () => {
		const first = await mock.run({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL });
		const id = output(first)[0].json.id as string;
		mock.service.reset();
		const run = await mock.run({ resource: 'image', operation: 'get', imageId: id });
		expect(run.status).toBe('success');
		expect(output(run)[0].json).toEqual(output(first)[0].json);
		expect(mock.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /image/${id}`]);
	});

	it('URL-encodes the id in the path', async () => {
		const run = await mock.run({ resource: 'image', operation: 'get', imageId: 'a b/c?d' });
		expect(mock.service.requests[0].path).toBe('/image/a%20b%2Fc%3Fd');
		// Unknown to the mock: a 404 with its own message.
		const error = nodeError(run);
		expect(error.httpCode).toBe('404');
		expect(error.message).toContain('No image moderation with id a b/c?d');
	});
});
