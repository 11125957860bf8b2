/**
 * Route by Verdict (outputs.ts) through n8n-core's real engine and the mock service: every rule and its
 * threshold edge, the Review output on and off, pairing across outputs.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { connect, moderationNode, runWorkflow, START_NODE_NAME } from '@test/helpers/engine';
import { pairedIndex, passThroughNode } from '@test/helpers/fixtures';
import { FLAGGED, imageUrl, inputs, moderate, names, NODE, REVIEW, SAFE, useRoutingMock } from '@test/helpers/routing';

const routing = useRoutingMock();
const { credentials } = routing;
let mock: MockService;
beforeAll(() => {
	mock = routing.mock;
});

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
			nodeTypes: { 'test.passThrough': passThroughNode },
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
