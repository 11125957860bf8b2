/**
 * Route by Verdict through n8n-core's real engine and the mock service: every rule and its
 * threshold edge, the Review output on and off, the input (JSON and binary) kept, pairing across
 * outputs, continueOnFail in both of n8n's flavours, and the modes/results that cannot be routed.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { binaryItem, connect, moderateUrlParameters, moderationNode, runWorkflow, START_NODE_NAME } from '../../../helpers/engine';
import type { MockService } from '@dev/mock/server';
import { startMockService } from '@dev/mock/server';
import { makePng, mockImageUrl, SAFE_TEXT, type MockImageSpec } from '@dev/mock/fixtures';

const NODE = 'Content Moderation';
const SAFE = 0;
const FLAGGED = 1;
const REVIEW = 2;

let mock: MockService;

/**
 * A downstream node that passes its input on with a `label` parameter resolved per item, to see which
 * items reach which branch and what `$('Start').item` (n8n's paired-item lookup) finds from there.
 */
const passThrough: INodeType = {
	description: {
		displayName: 'Pass Through',
		name: 'passThrough',
		group: ['transform'],
		version: 1,
		description: 'Passes items on',
		defaults: { name: 'Pass Through' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Label', name: 'label', type: 'string', default: '' }],
	},
	async execute(this: IExecuteFunctions) {
		return [
			this.getInputData().map((item, index) => ({
				json: { ...item.json, label: this.getNodeParameter('label', index) },
				pairedItem: { item: index },
			})),
		];
	},
};

beforeAll(async () => {
	mock = await startMockService({ processMs: 50 });
});

afterAll(async () => {
	await mock.stop();
});

beforeEach(() => mock.reset());

const credentials = () => ({ contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } });

/** A harmless image unless the spec says otherwise (exact numbers from the mock, see docs/service-interface.md). */
function imageUrl(name: string, spec: MockImageSpec = {}): string {
	return mockImageUrl({ safe: true, reject: false, review: false, risk: 10, ...spec }, name);
}

function moderate(routing: INodeParameters, extra: INodeParameters = {}): INodeParameters {
	return moderateUrlParameters({ routeByVerdict: true, ...routing, ...extra });
}

/** Input items carry a name and the URL to moderate; outputs are matched back by name. */
function inputs(cases: Record<string, string>): INodeExecutionData[] {
	return Object.entries(cases).map(([name, url]) => ({ json: { name, url } }));
}

function names(items: INodeExecutionData[]): string[] {
	return items.map((item) => String(item.json.name));
}

function pairedIndex(item: INodeExecutionData): number | undefined {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number' ? paired : paired?.item;
}

describe('verdict rules, through the engine', () => {
	const cases = {
		clean: imageUrl('clean'),
		notSafe: imageUrl('not-safe', { safe: false }),
		reject: imageUrl('reject', { reject: true }),
		riskAt: imageUrl('risk-at', { risk: 70 }),
		riskBelow: imageUrl('risk-below', { risk: 69 }),
		categoryAt: imageUrl('category-at', { categories: { violence_gore: 40 } }),
		categoryBelow: imageUrl('category-below', { categories: { violence_gore: 39 } }),
		customAt: imageUrl('custom-at', { categories: { sexual_activity: 55 } }),
		customBelow: imageUrl('custom-below', { categories: { sexual_activity: 54 } }),
		review: imageUrl('review', { review: true }),
		flaggedAndReview: imageUrl('flagged-and-review', { safe: false, review: true }),
	};
	const rules: INodeParameters = {
		riskThreshold: 70,
		categoryThresholds: {
			thresholds: [
				{ category: 'violence_gore', threshold: 40 },
				{ category: '__custom', customCategory: 'Sexual_Activity', threshold: 55 },
			],
		},
	};

	it('sends each item to Safe, Flagged or Review, with the reason, equal counting as reached', async () => {
		const items = inputs(cases);
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({ ...rules, reviewOutput: true }))],
			credentials: credentials(),
			items,
		});
		expect(run.error).toBeUndefined();
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(3);

		expect(names(outputs[SAFE]).sort()).toEqual(['categoryBelow', 'clean', 'customBelow', 'riskBelow']);
		expect(names(outputs[FLAGGED]).sort()).toEqual(
			['categoryAt', 'customAt', 'flaggedAndReview', 'notSafe', 'reject', 'riskAt'].sort(),
		);
		expect(names(outputs[REVIEW])).toEqual(['review']);

		const byName = new Map(outputs.flat().map((item) => [String(item.json.name), item.json]));
		expect(byName.get('clean')).toMatchObject({ verdict: 'safe', verdictReasons: ['no flag rule matched'] });
		expect(byName.get('notSafe')).toMatchObject({ verdict: 'flagged', verdictReasons: ['isSafe is false'] });
		expect(byName.get('reject')).toMatchObject({ verdictReasons: ['suggestedActions.reject is true'] });
		expect(byName.get('riskAt')).toMatchObject({ verdictReasons: ['riskScores.overall 70 >= threshold 70'] });
		expect(byName.get('categoryAt')).toMatchObject({
			verdictReasons: ['nsfwCategories violence_gore severity 40 >= threshold 40'],
		});
		expect(byName.get('customAt')).toMatchObject({
			verdictReasons: ['nsfwCategories sexual_activity severity 55 >= threshold 55'],
		});
		expect(byName.get('review')).toMatchObject({
			verdict: 'review',
			verdictReasons: ['suggestedActions.review is true'],
		});
		expect(byName.get('flaggedAndReview')).toMatchObject({ verdict: 'flagged' });

		// Every routed item is its input item (kept by default) paired with it, whatever the output.
		for (const item of outputs.flat()) {
			const index = pairedIndex(item);
			expect(index).toBeDefined();
			expect(item.json.name).toBe(items[index as number].json.name);
			expect(item.json.url).toBe(items[index as number].json.url);
			expect((item.json.moderation as IDataObject).hash).toEqual(expect.any(String));
		}
		expect(mock.requests.filter((r) => r.method === 'POST' && r.path === '/image')).toHaveLength(items.length);
	});

	it('without the Review output has two outputs and review suggestions go to Safe', async () => {
		const items = inputs({ review: cases.review, notSafe: cases.notSafe });
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({ reviewOutput: false }))],
			credentials: credentials(),
			items,
		});
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(2);
		expect(names(outputs[SAFE])).toEqual(['review']);
		expect(outputs[SAFE][0].json.verdict).toBe('safe');
		expect(String((outputs[SAFE][0].json.verdictReasons as string[])[0])).toContain('Review output is off');
		expect(names(outputs[FLAGGED])).toEqual(['notSafe']);
	});

	it('leaves the risk rule off at 0 and with no thresholds only isSafe/reject flag', async () => {
		const items = inputs({ high: imageUrl('high', { risk: 100, categories: { violence_gore: 100 } }) });
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({}))],
			credentials: credentials(),
			items,
		});
		expect(names(run.outputOf(NODE, SAFE))).toEqual(['high']);
		expect(run.outputOf(NODE, FLAGGED)).toEqual([]);
	});

	it('with routing off keeps one output with the plain result (existing workflows unchanged)', async () => {
		const items = inputs({ notSafe: cases.notSafe, clean: cases.clean });
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({ routeByVerdict: false }))],
			credentials: credentials(),
			items,
		});
		const outputs = run.outputsOf(NODE);
		expect(outputs).toHaveLength(1);
		expect(outputs[0]).toHaveLength(2);
		expect(outputs[0].map((item) => item.json.isSafe)).toEqual([false, true]);
		expect(outputs[0][0].json.verdict).toBeUndefined();
	});

	it('feeds downstream nodes per output, each item paired back to its own input item', async () => {
		const items = inputs({ clean: cases.clean, notSafe: cases.notSafe, reject: cases.reject });
		const connections = connect({}, START_NODE_NAME, NODE);
		connect(connections, NODE, 'On Safe', SAFE);
		connect(connections, NODE, 'On Flagged', FLAGGED);
		// With Keep Input Data off the name is not in the item: only pairing can bring it back.
		const label = { label: `={{ $('${START_NODE_NAME}').item.json.name }}` };
		const run = await runWorkflow({
			nodes: [
				moderationNode(moderate({ keepInput: false })),
				{ name: 'On Safe', type: 'test.passThrough', parameters: label },
				{ name: 'On Flagged', type: 'test.passThrough', parameters: label },
			],
			nodeTypes: { 'test.passThrough': passThrough },
			connections,
			credentials: credentials(),
			items,
		});
		expect(run.error).toBeUndefined();
		const onSafe = run.outputOf('On Safe');
		const onFlagged = run.outputOf('On Flagged');
		expect(onSafe.map((item) => item.json.label)).toEqual(['clean']);
		expect(onFlagged.map((item) => item.json.label)).toEqual(['notSafe', 'reject']);
		expect(onSafe.every((item) => item.json.name === undefined && item.json.verdict === 'safe')).toBe(true);
		expect(onFlagged.map((item) => item.json.verdictReasons)).toEqual([
			['isSafe is false'],
			['suggestedActions.reject is true'],
		]);
	});
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

describe('results that cannot be routed', () => {
	it('refuses plain deferred mode before submitting, naming Mode and Route by Verdict', async () => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({}, { mode: 'deferred' }))],
			credentials: credentials(),
			items: inputs({ clean: imageUrl('clean') }),
		});
		expect(run.status).toBe('error');
		const message = `${run.errorOf(NODE)?.message} ${run.errorOf(NODE)?.description ?? ''}`;
		expect(message).toMatch(/Route by Verdict/);
		expect(message).toMatch(/Mode "Deferred"/);
		expect(mock.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});

	it('routes deferredWait results once the wait is over', async () => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({}, { mode: 'deferredWait', pollInterval: 1, waitTimeout: 20 }))],
			credentials: credentials(),
			items: inputs({ notSafe: imageUrl('not-safe', { safe: false }) }),
		});
		expect(run.error).toBeUndefined();
		expect(names(run.outputOf(NODE, FLAGGED))).toEqual(['notSafe']);
		expect(run.outputOf(NODE, FLAGGED)[0].json.moderation).toMatchObject({ isSafe: false, id: expect.any(String) });
	});
});

/** Adds a queue item over HTTP and, when asked, waits (bounded) until the mock has processed it. */
async function addQueueItem(type: 'text' | 'image', content: string, processed: boolean): Promise<IDataObject> {
	const headers = { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' };
	const added = (await (
		await fetch(`${mock.url}/queues/routing-q`, { method: 'POST', headers, body: JSON.stringify({ type, content }) })
	).json()) as IDataObject;
	for (let attempt = 0; attempt < 100; attempt++) {
		const item = (await (
			await fetch(`${mock.url}/queues/routing-q/items/${String(added.id)}`, { headers })
		).json()) as IDataObject;
		if (!processed || item.moderation !== null) return item;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	throw new Error('queue item was not processed within 2 s');
}

describe('Queue > Get Item and Text > Get', () => {
	// Only `moderation` decides readiness: a moderated review-queue item still reads `pending` (no decision yet).
	it('routes a moderated queue item (status pending) by its moderation, the item under moderation', async () => {
		const queued = await addQueueItem('image', imageUrl('queued', { safe: false }), true);
		expect(queued.status).toBe('pending');
		const run = await runWorkflow({
			nodes: [
				moderationNode({
					resource: 'queue',
					operation: 'getItem',
					queueId: 'routing-q',
					itemId: String(queued.id),
					routeByVerdict: true,
				}),
			],
			credentials: credentials(),
			items: [{ json: { ticket: 7 } }],
		});
		expect(run.error).toBeUndefined();
		const [item] = run.outputOf(NODE, FLAGGED);
		expect(item.json).toMatchObject({ ticket: 7, verdict: 'flagged', verdictReasons: ['isSafe is false'] });
		expect(item.json.moderation).toMatchObject({ id: queued.id, moderation: { isSafe: false } });
	});

	it('refuses a queue item without moderation yet, or puts the error on Flagged with Continue', async () => {
		mock.configure({ processMs: 60_000 });
		try {
			const queued = await addQueueItem('text', 'hello there', false);
			// Not moderated yet: processing, moderation null.
			expect(queued).toMatchObject({ status: 'processing', moderation: null });
			const node = (onError?: 'continueRegularOutput') =>
				moderationNode(
					{ resource: 'queue', operation: 'getItem', queueId: 'routing-q', itemId: String(queued.id), routeByVerdict: true },
					onError ? { onError } : {},
				);
			const failed = await runWorkflow({ nodes: [node()], credentials: credentials() });
			expect(failed.status).toBe('error');
			expect(failed.errorOf(NODE)?.message).toMatch(/has no moderation yet.*Route by Verdict/);

			const continued = await runWorkflow({ nodes: [node('continueRegularOutput')], credentials: credentials() });
			expect(continued.error).toBeUndefined();
			expect(continued.outputOf(NODE, FLAGGED)).toHaveLength(1);
			expect(String(continued.outputOf(NODE, FLAGGED)[0].json.error)).toMatch(/has no moderation yet/);
			expect(continued.outputOf(NODE, SAFE)).toEqual([]);
		} finally {
			mock.configure({ processMs: 50 });
		}
	});

	it('routes a text moderation read by id, with a risk threshold taken from its own score', async () => {
		const queued = await addQueueItem('text', SAFE_TEXT, true);
		const text = queued.moderation as IDataObject;
		expect(text.isSafe).toBe(true);
		const overall = (text.riskScores as IDataObject).overall as number;
		const run = await runWorkflow({
			nodes: [
				moderationNode({
					resource: 'text',
					operation: 'get',
					textId: '={{ $json.id }}',
					routeByVerdict: true,
					riskThreshold: '={{ $json.threshold }}',
					keepInput: false,
				}),
			],
			credentials: credentials(),
			items: [
				{ json: { id: text.id, threshold: overall } },
				{ json: { id: text.id, threshold: overall + 1 } },
			],
		});
		expect(run.error).toBeUndefined();
		const [flagged] = run.outputOf(NODE, FLAGGED);
		expect(flagged.json).toMatchObject({ id: text.id, verdict: 'flagged' });
		expect(flagged.json.verdictReasons).toContain(`riskScores.overall ${overall} >= threshold ${overall}`);
		expect(pairedIndex(flagged)).toBe(0);
		const [safe] = run.outputOf(NODE, SAFE);
		expect(pairedIndex(safe)).toBe(1);
		expect(safe.json).toMatchObject({ id: text.id, verdict: 'safe' });
	});
});
