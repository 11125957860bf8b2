/**
 * Image > Moderate (immediate and deferred modes) through n8n-core's engine against the mock service.
 */
import type { IExecuteFunctions, INodeType } from 'n8n-workflow';

import { binaryItem, moderationNode, runWorkflow } from '@test/helpers/engine';
import { testNodeDescription } from '@test/helpers/fixtures';
import { imagePosts as imagePostsOf, moderateImage } from '@test/helpers/parameters';
import { startScriptedServer } from '@test/helpers/scripted-server';
import {
	REVIEW_IMAGE_URL,
	SAFE_IMAGE_BASE64,
	SAFE_IMAGE_URL,
	UNSAFE_IMAGE_BASE64,
	UNSAFE_IMAGE_URL,
} from '@dev/mock/fixtures';
import { makePng } from '@dev/mock/png';
import { expectNoToken, nodeError, output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';

const mock = useMock();

const moderate = moderateImage;
const imagePosts = () => imagePostsOf(mock.service);

describe('Image > Moderate, immediate', () => {
	it('sends an image URL and outputs the full result', async () => {
		const run = await mock.run(moderate({ imageUrl: SAFE_IMAGE_URL }));
		expect(run.status).toBe('success');
		const [item] = output(run);
		expect(item.json.isSafe).toBe(true);
		expect(item.json).toEqual(expect.objectContaining({ hash: expect.any(String), riskScores: expect.any(Object) }));
		expect(item.pairedItem).toEqual({ item: 0 });
		// Only `image`: no options were set, so no options object is sent.
		expect(imagePosts().map((r) => r.body)).toEqual([{ image: SAFE_IMAGE_URL }]);
		expect(mock.service.requests[0].headers.authorization).toBe(`Bearer ${SECRET_TOKEN}`);
		expectNoToken(run, SECRET_TOKEN);
	});

	it('sends base64 as given and with a data: prefix stripped', async () => {
		const run = await mock.run(moderate({ inputType: 'base64', imageBase64: '={{ $json.b64 }}' }), [
			{ json: { b64: UNSAFE_IMAGE_BASE64 } },
			{ json: { b64: `data:image/png;base64,${SAFE_IMAGE_BASE64}` } },
			// Line breaks from copied text are removed too.
			{ json: { b64: SAFE_IMAGE_BASE64.replace(/(.{20})/g, '$1\n') } },
		]);
		expect(run.status).toBe('success');
		expect(output(run).map((i) => i.json.isSafe)).toEqual([false, true, true]);
		// Items may be sent concurrently: compare what was sent, not the arrival order.
		const sent = imagePosts().map((r) => JSON.stringify(r.body));
		expect(sent.sort()).toEqual(
			[UNSAFE_IMAGE_BASE64, SAFE_IMAGE_BASE64, SAFE_IMAGE_BASE64].map((image) => JSON.stringify({ image })).sort(),
		);
	});

	it('reads binary input from the filesystem binary store with getBinaryDataBuffer', async () => {
		const bytes = makePng('nsfw');
		const run = await mock.run(moderate({ inputType: 'binary', binaryPropertyName: 'photo' }), [
			binaryItem(bytes, { property: 'photo' }),
		]);
		expect(run.status).toBe('success');
		// The stored binary holds only a reference, so a node reading `.data` would send garbage.
		expect(run.outputOf('Start')[0].binary?.photo.data).not.toBe(bytes.toString('base64'));
		expect(imagePosts()[0].body).toEqual({ image: bytes.toString('base64') });
		expect(output(run)[0].json.isSafe).toBe(false);
	});

	it('sends only the options that are set, metadata parsed from JSON under both meta and metadata', async () => {
		const run = await mock.run(
			moderate({
				imageUrl: SAFE_IMAGE_URL,
				options: { meta: '{"orderId":"A-17","n":[1,2]}', actorId: 'user-42' },
			}),
		);
		expect(run.status).toBe('success');
		expect(imagePosts()[0].body).toEqual({
			image: SAFE_IMAGE_URL,
			options: { meta: { orderId: 'A-17', n: [1, 2] }, metadata: { orderId: 'A-17', n: [1, 2] }, actorId: 'user-42' },
		});
		expect(output(run)[0].json.meta).toEqual({ orderId: 'A-17', n: [1, 2] });
	});

	it('drops Metadata left at its default {} (as Text > Moderate): no meta and no metadata sent', async () => {
		const run = await mock.run(moderate({ imageUrl: SAFE_IMAGE_URL, options: { meta: '{}', actorId: 'user-42' } }));
		expect(run.status).toBe('success');
		expect(imagePosts()[0].body).toEqual({ image: SAFE_IMAGE_URL, options: { actorId: 'user-42' } });
	});

	it('does not send a callback URL in immediate mode (it would turn the answer into an id only)', async () => {
		const run = await mock.run(
			moderate({ imageUrl: SAFE_IMAGE_URL, options: { callbackUrl: 'http://127.0.0.1:9/cb', actorId: '' } }),
		);
		expect(run.status).toBe('success');
		expect(imagePosts()[0].body).toEqual({ image: SAFE_IMAGE_URL });
		expect(output(run)[0].json.isSafe).toBe(true);
	});
});

describe('Image > Moderate, Max Image Size', () => {
	const MB = 1024 * 1024;
	const bigPng = () => Buffer.concat([makePng('cat'), Buffer.alloc(Math.round(1.5 * MB), 7)]);

	it.each([
		['Binary File', { inputType: 'binary', binaryPropertyName: 'data' }, () => binaryItem(bigPng())],
		['Base64', { inputType: 'base64', imageBase64: '={{ $json.b64 }}' }, () => ({ json: { b64: bigPng().toString('base64') } })],
	])('%s: an image over it fails its item before anything is sent, naming the option', async (_label, input, item) => {
		const run = await mock.run(moderate({ ...input, options: { maxImageSizeMb: 1 } }), [item()]);
		expect(run.status).toBe('error');
		expect(imagePosts()).toHaveLength(0);
		const error = nodeError(run);
		expect(error?.message).toMatch(/^The image is 1\.5 MB, larger than Max Image Size \(1 MB\)/);
		expect(error?.description).toContain('Max Image Size (MB)');
		expect(error?.description).toContain('Nothing was sent');
	});

	it('accepts the same image at the default (20 MB)', async () => {
		const run = await mock.run(moderate({ inputType: 'binary', binaryPropertyName: 'data' }), [binaryItem(bigPng())]);
		expect(run.status).toBe('success');
		expect(imagePosts()).toHaveLength(1);
	});

	/** A PNG padded to exactly `bytes`. */
	const pngOf = (bytes: number) => {
		const png = makePng('cat');
		return Buffer.concat([png, Buffer.alloc(bytes - png.length, 7)]);
	};

	it.each([
		['Binary File', { inputType: 'binary', binaryPropertyName: 'data' }, () => binaryItem(pngOf(MB))],
		['Base64', { inputType: 'base64', imageBase64: '={{ $json.b64 }}' }, () => ({ json: { b64: pngOf(MB).toString('base64') } })],
	])('%s: an image of exactly Max Image Size is sent (the limit is inclusive)', async (_label, input, item) => {
		const run = await mock.run(moderate({ ...input, options: { maxImageSizeMb: 1 } }), [item()]);
		expect(run.error).toBeUndefined();
		expect(imagePosts().map((r) => Buffer.from(String((r.body as { image: string }).image), 'base64').length)).toEqual([MB]);
	});

	it('Binary File: a file of 0 bytes fails its item, nothing is sent', async () => {
		const run = await mock.run(moderate({ inputType: 'binary', binaryPropertyName: 'data' }), [binaryItem(Buffer.alloc(0))]);
		expect(run.status).toBe('error');
		expect(nodeError(run).message).toBe('The binary property "data" is empty [item 0]');
		expect(imagePosts()).toHaveLength(0);
	});

	/** Passes its input on with each binary's recorded size set to 1 KB, whatever the file holds. */
	const understatesSize: INodeType = {
		description: testNodeDescription('Understates Size', 'Records a smaller size than the file has'),
		async execute(this: IExecuteFunctions) {
			return [
				this.getInputData().map((item, index) => ({
					json: item.json,
					binary: Object.fromEntries(Object.entries(item.binary ?? {}).map(([key, data]) => [key, { ...data, bytes: 1024 }])),
					pairedItem: { item: index },
				})),
			];
		},
	};

	it('Binary File: a file larger than Max Image Size whose recorded size is small is refused when read, nothing is sent', async () => {
		const run = await runWorkflow({
			nodes: [
				{ name: 'Understates Size', type: 'test.understatesSize', parameters: {} },
				moderationNode(moderate({ inputType: 'binary', binaryPropertyName: 'data', options: { maxImageSizeMb: 1 } })),
			],
			nodeTypes: { 'test.understatesSize': understatesSize },
			credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: mock.service.token } },
			items: [binaryItem(bigPng())],
		});
		expect(run.outputOf('Understates Size')[0].binary?.data.bytes).toBe(1024);
		expect(run.status).toBe('error');
		expect(nodeError(run).message).toMatch(/^The image is 1\.5 MB, larger than Max Image Size \(1 MB\)/);
		expect(imagePosts()).toHaveLength(0);
	});
});

describe('Image > Moderate, deferred modes', () => {
	it('deferred: sends defer true (and the callback URL) and outputs only the id', async () => {
		const run = await mock.run(
			moderate({
				imageUrl: REVIEW_IMAGE_URL,
				mode: 'deferred',
				options: { callbackUrl: 'http://127.0.0.1:9/webhook/abc/callback' },
			}),
		);
		expect(run.status).toBe('success');
		const [item] = output(run);
		expect(Object.keys(item.json)).toEqual(['id']);
		expect(typeof item.json.id).toBe('string');
		expect(imagePosts()[0].body).toEqual({
			image: REVIEW_IMAGE_URL,
			options: { callbackUrl: 'http://127.0.0.1:9/webhook/abc/callback', defer: true },
		});
	});
});
