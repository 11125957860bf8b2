/**
 * continueOnFail and pairing through n8n-core's engine: error items (errors.ts) paired to their input,
 * in input order.
 */
import { mockImageUrl, SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { connect, runWorkflow, moderationNode, START_NODE_NAME } from '@test/helpers/engine';
import { expectNoToken, NODE_NAME, output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';

const mock = useMock();

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
