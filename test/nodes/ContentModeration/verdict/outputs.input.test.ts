/**
 * Route by Verdict (outputs.ts): the input (JSON and binary) kept on routed items, and continueOnFail in
 * both of n8n's flavours.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { makePng, mockImageUrl } from '@dev/mock/fixtures';
import { binaryItem, moderationNode, runWorkflow, START_NODE_NAME } from '@test/helpers/engine';
import { pairedIndex } from '@test/helpers/fixtures';
import { FLAGGED, imageUrl, inputs, moderate, names, NODE, REVIEW, SAFE, useRoutingMock } from '@test/helpers/routing';

const routing = useRoutingMock();
const { credentials } = routing;
let mock: MockService;
beforeAll(() => {
	mock = routing.mock;
});

describe('keeping the input', () => {
	const marker = 'mock_safe=0 mock_reject=0 mock_review=0 mock_risk=10';
	const png = makePng(marker);
	const binaryParams = { inputType: 'binary', binaryPropertyName: 'data', imageUrl: undefined };

	it('keeps the input JSON and binary data on the routed item, the result under moderation', async () => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({}, binaryParams))],
			credentials: credentials(),
			items: [binaryItem(png, { json: { orderId: 42 }, fileName: 'upload.png' })],
		});
		expect(run.error).toBeUndefined();
		const [item] = run.outputOf(NODE, FLAGGED);
		expect(item.json).toMatchObject({ orderId: 42, verdict: 'flagged', verdictReasons: ['isSafe is false'] });
		expect(item.json.moderation).toMatchObject({ isSafe: false });
		expect(item.binary?.data).toMatchObject({ fileName: 'upload.png', mimeType: 'image/png' });
		// The binary is the very one the Start node stored, not a copy of other bytes.
		const start = run.outputOf(START_NODE_NAME)[0];
		expect(item.binary?.data.id ?? item.binary?.data.data).toBe(start.binary?.data.id ?? start.binary?.data.data);
		expect(pairedIndex(item)).toBe(0);
		// The bytes the service analysed are the input's bytes.
		const post = mock.requests.find((r) => r.method === 'POST' && r.path === '/image');
		expect((post?.body as IDataObject).image).toContain(png.toString('base64'));
	});

	it('with Keep Input Data off the item is the result alone, with the verdict', async () => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({ keepInput: false }, binaryParams))],
			credentials: credentials(),
			items: [binaryItem(png, { json: { orderId: 42 } })],
		});
		const [item] = run.outputOf(NODE, FLAGGED);
		expect(item.json.orderId).toBeUndefined();
		expect(item.json.moderation).toBeUndefined();
		expect(item.json).toMatchObject({ isSafe: false, verdict: 'flagged', hash: expect.any(String) });
		expect(item.binary).toBeUndefined();
		expect(pairedIndex(item)).toBe(0);
	});
});

describe('continueOnFail with routing on', () => {
	const items = inputs({
		clean: imageUrl('clean'),
		broken: mockImageUrl({ risk: 500 }, 'broken'),
		notSafe: imageUrl('not-safe', { safe: false }),
	});

	it('without it, a failing item stops the node with that item\'s service error', async () => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({}))],
			credentials: credentials(),
			items,
		});
		expect(run.status).toBe('error');
		const error = run.errorOf(NODE);
		expect(error?.message).toBe(
			'The Content Moderation Service answered 400: image parameter mock_risk must be an integer from 1 to 100',
		);
		expect(error).toMatchObject({ httpCode: '400' });
		expect(error?.context?.itemIndex).toBe(1);
	});

	it('"Continue" puts the error item on Flagged (fail closed, like Guardrails\' Fail output), never on Safe', async () => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({}), { onError: 'continueRegularOutput' })],
			credentials: credentials(),
			items,
		});
		expect(run.error).toBeUndefined();
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(2);
		expect(outputs[SAFE].find((item) => item.json.error !== undefined)).toBeUndefined();
		const errorItem = outputs[FLAGGED].find((item) => item.json.error !== undefined);
		expect(errorItem).toBeDefined();
		expect(pairedIndex(errorItem as INodeExecutionData)).toBe(1);
		expect(String(errorItem?.json.error)).toMatch(/mock_risk/);
		expect(names(outputs[SAFE])).toEqual(['clean']);
		expect(names(outputs[FLAGGED].filter((item) => item.json.error === undefined))).toEqual(['notSafe']);
	});

	it('"Continue (using error output)" sends the error item to the Error output n8n adds after Review', async () => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({ reviewOutput: true }), { onError: 'continueErrorOutput' })],
			credentials: credentials(),
			items,
		});
		expect(run.error).toBeUndefined();
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(4);
		expect(names(outputs[SAFE])).toEqual(['clean']);
		expect(names(outputs[FLAGGED])).toEqual(['notSafe']);
		expect(outputs[REVIEW]).toEqual([]);
		const [errorItem] = outputs[3];
		// n8n merges the input item back into the error item on its Error output.
		expect(errorItem.json).toMatchObject({ name: 'broken', error: expect.stringMatching(/mock_risk/) });
		expect(pairedIndex(errorItem)).toBe(1);
	});
});
