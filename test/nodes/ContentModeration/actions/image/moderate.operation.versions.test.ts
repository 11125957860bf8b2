/**
 * Image > Moderate at node version 2 against version 1 (as saved workflows hold it), through n8n-core's
 * engine and the mock: the request settings are read from the one Options collection, and a Callback URL
 * with a pasted token (only a version 1 trigger's Callback Token read it) is refused before anything is sent.
 */
import { binaryItem } from '@test/helpers/engine';
import { makePng } from '@dev/mock/png';
import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { nodeError, useMock } from '@test/helpers/nodeRun';

const mock = useMock();
const MB = 1024 * 1024;
const bigPng = () => Buffer.concat([makePng('cat'), Buffer.alloc(Math.round(1.5 * MB), 7)]);
const binary = { resource: 'image', operation: 'moderate', inputType: 'binary', binaryPropertyName: 'data' };

function imagePosts() {
	return mock.service.requests.filter((r) => r.method === 'POST' && r.path === '/image');
}

describe('request settings', () => {
	it('version 2 reads Max Image Size from Options', async () => {
		const run = await mock.run({ ...binary, options: { maxImageSizeMb: 1 } }, [binaryItem(bigPng())], { typeVersion: 2 });
		expect(nodeError(run).message).toMatch(/larger than Max Image Size \(1 MB\)/);
		expect(imagePosts()).toHaveLength(0);
	});

	it('version 2 ignores a Request Options value left in its JSON (not a field of that version)', async () => {
		const run = await mock.run({ ...binary, requestOptions: { maxImageSizeMb: 1 } }, [binaryItem(bigPng())], { typeVersion: 2 });
		expect(run.status).toBe('success');
		expect(imagePosts()).toHaveLength(1);
	});

	it('version 1 keeps reading Request Options, as saved', async () => {
		const saved = await mock.run({ ...binary, requestOptions: { maxImageSizeMb: 1 } }, [binaryItem(bigPng())], { typeVersion: 1 });
		expect(nodeError(saved).message).toMatch(/larger than Max Image Size \(1 MB\)/);
		expect(imagePosts()).toHaveLength(0);
	});
});

describe('a Callback URL with a pasted token', () => {
	const PASTED = 'pasted-token-3c9d';
	const deferred = {
		resource: 'image',
		operation: 'moderate',
		imageUrl: SAFE_IMAGE_URL,
		mode: 'deferred',
		options: { callbackUrl: `http://127.0.0.1:9/webhook/abc/callback?token=${PASTED}` },
	};

	it('version 2: refused before anything is sent, naming the field and the fix, without the token', async () => {
		const run = await mock.run(deferred, undefined, { typeVersion: 2 });
		const error = nodeError(run);
		expect(error.message).toMatch(/^The Callback URL carries a token \(token=…\)/);
		expect(error.description).toMatch(/Remove the token from the Callback URL and set a Callback Secret in the Content Moderation API credential/);
		expect(error.context?.itemIndex).toBe(0);
		expect(`${error.message} ${error.description}`).not.toContain(PASTED);
		expect(imagePosts()).toHaveLength(0);
	});

	it('version 1: sent as pasted (its trigger may check that token)', async () => {
		const run = await mock.run(deferred, undefined, { typeVersion: 1 });
		expect(run.status).toBe('success');
		expect((imagePosts()[0].body as { options: { callbackUrl: string } }).options.callbackUrl).toBe(deferred.options.callbackUrl);
	});
});
