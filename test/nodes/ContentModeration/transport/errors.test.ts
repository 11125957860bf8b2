/**
 * Input checks, service failures, continueOnFail and pairing, through n8n-core's engine.
 */
import type { INodeParameters } from 'n8n-workflow';

import { connect, runWorkflow, moderationNode, START_NODE_NAME } from '../../../helpers/engine';
import { startScriptedServer } from '../../../helpers/scripted-server';
import { mockImageUrl, SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { expectNoToken, NODE_NAME, nodeError, output, SECRET_TOKEN, useMock } from '../../../helpers/nodeRun';

const mock = useMock();

interface BadInput {
	name: string;
	parameters: INodeParameters;
	items?: Parameters<typeof mock.run>[1];
	/** Text the message must contain (names the field). */
	message: string;
}

const badInputs: BadInput[] = [
	{
		name: 'image id shorter than 3 characters',
		parameters: { resource: 'image', operation: 'get', imageId: 'ab' },
		message: 'The Image ID "ab" is too short',
	},
	{
		name: 'empty image id',
		parameters: { resource: 'image', operation: 'get', imageId: '  ' },
		message: 'The Image ID is empty',
	},
	{
		name: 'text id shorter than 3 characters (get)',
		parameters: { resource: 'text', operation: 'get', textId: 'x' },
		message: 'The Text ID "x" is too short',
	},
	{
		name: 'text id shorter than 3 characters (delete)',
		parameters: { resource: 'text', operation: 'delete', textId: '12' },
		message: 'The Text ID "12" is too short',
	},
	{
		name: 'queue item id shorter than 3 characters',
		parameters: { resource: 'queue', operation: 'getItem', queueId: 'comments', itemId: 'ab' },
		message: 'The Item ID "ab" is too short',
	},
	{
		name: 'image URL that is not http(s)',
		parameters: { resource: 'image', operation: 'moderate', imageUrl: 'ftp://example.com/a.jpg' },
		message: 'The Image URL must be an http(s) URL, not ftp',
	},
	{
		name: 'image URL that is not a URL',
		parameters: { resource: 'image', operation: 'moderate', imageUrl: 'cat.jpg' },
		message: 'The Image URL "cat.jpg" is not a valid URL',
	},
	{
		name: 'base64 that does not decode',
		parameters: { resource: 'image', operation: 'moderate', inputType: 'base64', imageBase64: 'not*base64!' },
		message: 'The Image (Base64) is not valid base64',
	},
	{
		name: 'missing binary property',
		parameters: { resource: 'image', operation: 'moderate', inputType: 'binary', binaryPropertyName: 'photo' },
		message: 'The input item has no binary property "photo"',
	},
	{
		name: 'meta that is not valid JSON',
		parameters: {
			resource: 'image',
			operation: 'moderate',
			imageUrl: SAFE_IMAGE_URL,
			options: { meta: '{orderId: A-17}' },
		},
		message: 'The Metadata (JSON) is not valid JSON',
	},
	{
		name: 'callback URL that is not http(s)',
		parameters: {
			resource: 'image',
			operation: 'moderate',
			imageUrl: SAFE_IMAGE_URL,
			mode: 'deferred',
			options: { callbackUrl: 'javascript:alert(1)' },
		},
		message: 'The Callback URL must be an http(s) URL',
	},
	{
		// A literal empty required field is refused by n8n itself; an expression can still produce one.
		name: 'empty queue id',
		parameters: {
			resource: 'queue',
			operation: 'addItem',
			queueId: '={{ $json.queue }}',
			contentType: 'text',
			text: 'hello',
		},
		items: [{ json: { queue: '' } }],
		message: 'The Queue ID is empty',
	},
	{
		name: 'queue id shorter than 3 characters (add item)',
		parameters: { resource: 'queue', operation: 'addItem', queueId: 'q1', contentType: 'text', text: 'hello' },
		message: 'The Queue ID "q1" is too short',
	},
	{
		name: 'empty text',
		parameters: { resource: 'queue', operation: 'addItem', queueId: 'comments', contentType: 'text', text: ' ' },
		message: 'The Text is empty',
	},
	{
		name: 'queue image with a missing binary property',
		parameters: {
			resource: 'queue',
			operation: 'addItem',
			queueId: 'comments',
			contentType: 'image',
			inputType: 'binary',
		},
		message: 'The input item has no binary property "data"',
	},
];

describe('input checks: a NodeOperationError naming the field, the item and a fix, before any request', () => {
	it.each(badInputs)('$name', async ({ parameters, items, message }) => {
		const run = await mock.run(parameters, items);
		expect(run.status).toBe('error');
		const error = nodeError(run);
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toContain(message);
		expect(error.message).toContain('[item 0]');
		expect(error.context?.itemIndex).toBe(0);
		expect(error.description).toEqual(expect.any(String));
		expect((error.description ?? '').length).toBeGreaterThan(20);
		expect(mock.service.requests).toHaveLength(0);
		expectNoToken(run, SECRET_TOKEN);
	});

	it('names the failing item when it is not the first', async () => {
		const run = await mock.run({ resource: 'image', operation: 'moderate', imageUrl: '={{ $json.url }}' }, [
			{ json: { url: SAFE_IMAGE_URL } },
			{ json: { url: 'ftp://example.com/x.png' } },
		]);
		const error = nodeError(run);
		expect(error.message).toContain('[item 1]');
		expect(error.context?.itemIndex).toBe(1);
	});
});

describe('service failures: NodeApiError with the HTTP status and the service message, no token', () => {
	it('401 for a wrong token', async () => {
		const wrongToken = 'wrong-token-5d1e9a';
		const run = await mock.run({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL }, undefined, {
			accessToken: wrongToken,
		});
		const error = nodeError(run);
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('401');
		expect(error.message).toContain('Invalid access token');
		expect(error.description).toContain('Secret Key');
		expect(mock.service.requests[0].headers.authorization).toBe(`Bearer ${wrongToken}`);
		expectNoToken(run, wrongToken);
		expectNoToken(run, SECRET_TOKEN);
	});

	it('404 for an unknown id', async () => {
		const unknown = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
		const run = await mock.run({ resource: 'text', operation: 'get', textId: unknown });
		const error = nodeError(run);
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('404');
		expect(error.message).toContain(`No text moderation with id ${unknown}`);
		expectNoToken(run, SECRET_TOKEN);
	});

	it('500 from the service (a submission is not retried on 500)', async () => {
		const server = await startScriptedServer(() => ({
			status: 500,
			body: { error: { status: 500, code: 'internal', message: 'Moderation backend exploded' } },
		}));
		try {
			const run = await mock.run({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL }, undefined, {
				baseUrl: server.url,
			});
			const error = nodeError(run);
			expect(error.name).toBe('NodeApiError');
			expect(error.httpCode).toBe('500');
			expect(error.message).toContain('Moderation backend exploded');
			expect(server.requests).toHaveLength(1);
			expect(server.requests[0].headers.authorization).toBe(`Bearer ${SECRET_TOKEN}`);
			expectNoToken(run, SECRET_TOKEN);
		} finally {
			await server.stop();
		}
	});

	it('an unreachable service names the Base URL and the network code, no token', async () => {
		// A port that was just free: nothing listens there.
		const server = await startScriptedServer(() => ({ status: 200, body: {} }));
		const closedUrl = server.url;
		await server.stop();
		const run = await mock.run(
			{ resource: 'image', operation: 'get', imageId: 'abc123', requestOptions: { maxRetries: 0 } },
			undefined,
			{ baseUrl: closedUrl },
		);
		const error = nodeError(run);
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe(`Could not reach the Content Moderation Service at ${closedUrl}`);
		expect(error.description).toContain('ECONNREFUSED');
		expect(error.description).toContain('Base URL');
		expectNoToken(run, SECRET_TOKEN);
	});

	it('a service message echoing the token is redacted', async () => {
		const server = await startScriptedServer((request) => ({
			status: 400,
			body: { error: { status: 400, code: 'bad', message: `bad header ${String(request.headers.authorization)}` } },
		}));
		try {
			const run = await mock.run({ resource: 'text', operation: 'get', textId: 'abc' }, undefined, {
				baseUrl: server.url,
			});
			expect(nodeError(run).httpCode).toBe('400');
			expectNoToken(run, SECRET_TOKEN);
		} finally {
			await server.stop();
		}
	});
});

describe('continueOnFail and pairing', () => {
	const urls = [SAFE_IMAGE_URL, 'ftp://bad', UNSAFE_IMAGE_URL, mockImageUrl({ risk: 70 }), SAFE_IMAGE_URL];

	it('several items: outputs follow input order and each is paired to its input', async () => {
		const items = [SAFE_IMAGE_URL, UNSAFE_IMAGE_URL, mockImageUrl({ risk: 70 }), SAFE_IMAGE_URL].map((url) => ({
			json: { url },
		}));
		const run = await mock.run({ resource: 'image', operation: 'moderate', imageUrl: '={{ $json.url }}' }, items);
		expect(run.status).toBe('success');
		const out = output(run);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(out.map((i) => i.json.isSafe)).toEqual([true, false, true, true]);
		expect((out[2].json.riskScores as { overall: number }).overall).toBe(70);
		// Items may be sent concurrently: compare what was sent, not the arrival order.
		const sent = mock.service.requests.map((r) => (r.body as { image: string }).image);
		expect(sent.sort()).toEqual(items.map((i) => i.json.url).sort());
	});

	it('continueRegularOutput: one error item per failing input, the others go on', async () => {
		const items = urls.map((url) => ({ json: { url } }));
		const run = await mock.run(
			{ resource: 'image', operation: 'moderate', imageUrl: '={{ $json.url }}' },
			[...items, { json: { url: SAFE_IMAGE_URL } }],
			{ onError: 'continueRegularOutput' },
		);
		expect(run.status).toBe('success');
		const out = output(run);
		expect(out).toHaveLength(6);
		expect(out.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3, 4, 5].map((item) => ({ item })));
		expect(out[1].json).toEqual({
			error: expect.stringContaining('The Image URL must be an http(s) URL'),
			details: { description: expect.any(String) },
		});
		expect(out.filter((i) => i.json.error !== undefined)).toHaveLength(1);
		expect(mock.service.requests).toHaveLength(5);
		expectNoToken(run, SECRET_TOKEN);
	});

	it('continueRegularOutput: a service error becomes an error item with its HTTP status', async () => {
		const run = await mock.run(
			{ resource: 'image', operation: 'get', imageId: '={{ $json.id }}' },
			[{ json: { id: '00000000-0000-4000-8000-00000000000a' } }, { json: { id: '00000000-0000-4000-8000-00000000000b' } }],
			{ onError: 'continueRegularOutput' },
		);
		expect(run.status).toBe('success');
		const out = output(run);
		expect(out.map((i) => [i.pairedItem, (i.json.details as { httpCode?: string }).httpCode])).toEqual([
			[{ item: 0 }, '404'],
			[{ item: 1 }, '404'],
		]);
		expect(out[0].json.error).toContain('No image moderation with id 00000000-0000-4000-8000-00000000000a');
	});

	it('continueErrorOutput: failing items go to the error output, paired to their input', async () => {
		const run = await runWorkflow({
			nodes: [
				moderationNode(
					{ resource: 'image', operation: 'moderate', imageUrl: '={{ $json.url }}' },
					{ onError: 'continueErrorOutput' },
				),
			],
			connections: connect({}, START_NODE_NAME, NODE_NAME),
			credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: SECRET_TOKEN } },
			items: [{ json: { url: SAFE_IMAGE_URL } }, { json: { url: 'nope' } }, { json: { url: UNSAFE_IMAGE_URL } }],
		});
		expect(run.status).toBe('success');
		const [success, errors] = run.outputsOf(NODE_NAME);
		expect(success.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(errors.map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
		expect(errors[0].json.error).toContain('The Image URL "nope" is not a valid URL');
	});
});
