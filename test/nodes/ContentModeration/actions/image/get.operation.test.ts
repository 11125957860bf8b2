/**
 * Image > Moderate and Image > Get through n8n-core's engine against the mock service.
 */
import { binaryItem } from '../../../../helpers/engine';
import { startScriptedServer } from '../../../../helpers/scripted-server';
import {
	REVIEW_IMAGE_URL,
	SAFE_IMAGE_BASE64,
	SAFE_IMAGE_URL,
	UNSAFE_IMAGE_BASE64,
	UNSAFE_IMAGE_URL,
} from '../../../../../dev/mock/fixtures';
import { makePng } from '../../../../../dev/mock/png';
import { expectNoToken, nodeError, output, SECRET_TOKEN, useMock } from '../../../../helpers/nodeRun';

const mock = useMock();

const moderate = (extra: Record<string, unknown>) => ({
	resource: 'image',
	operation: 'moderate',
	...extra,
});

function imagePosts() {
	return mock.service.requests.filter((r) => r.method === 'POST' && r.path === '/image');
}

describe('Image > Get', () => {
	it('reads a finished moderation by id', async () => {
		const first = await mock.run(moderate({ imageUrl: SAFE_IMAGE_URL }));
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
