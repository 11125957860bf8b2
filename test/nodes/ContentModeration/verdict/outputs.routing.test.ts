/**
 * Route by Verdict's parts called directly on a fake context: reading the rules and the plan, sending each result
 * to Safe, Flagged, Review or another order's outputs (Timed Out), pairing, error items and results without analysis.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RoutingInputs, RoutingPlan, VerdictFacts } from '@package/nodes/ContentModeration/verdict/outputs';
import {
	firstPairedIndex,
	isErrorItem,
	isVerdictRoutingOn,
	readRoutingPlan,
	readRules,
	routeByVerdict,
	routeResults,
} from '@package/nodes/ContentModeration/verdict/outputs';

const NODE_ = { name: 'Content Moderation' } as INode;

type Params = Record<string, unknown>;

/** A context whose parameters are `shared`, overridden per item by `perItem[itemIndex]`; absent ones give the fallback. */
function context(shared: Params, options: { perItem?: Params[]; inputs?: INodeExecutionData[]; continueOnFail?: boolean } = {}) {
	const calls: Array<[string, number]> = [];
	const ctx = {
		getNode: () => NODE_,
		getNodeParameter: (name: string, itemIndex: number, fallback: unknown) => {
			calls.push([name, itemIndex]);
			const own = options.perItem?.[itemIndex] ?? {};
			if (name in own) return own[name];
			return name in shared ? shared[name] : fallback;
		},
		getInputData: () => options.inputs ?? [{ json: {} }],
		continueOnFail: () => options.continueOnFail ?? false,
	} as unknown as IExecuteFunctions;
	return { ctx, calls };
}

const facts: VerdictFacts = { analysisOf: (result) => result };
const thresholds = (...rows: IDataObject[]) => ({ 'categoryThresholds.thresholds': rows });

function caught(run: () => unknown): NodeOperationError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('no error thrown');
}

describe('isVerdictRoutingOn', () => {
	it('is on only with facts and Route by Verdict exactly true, read from the first item', () => {
		const on = context({ routeByVerdict: true });
		expect(isVerdictRoutingOn.call(on.ctx, facts)).toBe(true);
		expect(on.calls).toEqual([['routeByVerdict', 0]]);
		expect(isVerdictRoutingOn.call(on.ctx, undefined)).toBe(false);
		expect(isVerdictRoutingOn.call(context({}).ctx, facts)).toBe(false);
		expect(isVerdictRoutingOn.call(context({ routeByVerdict: 'true' }).ctx, facts)).toBe(false);
		expect(isVerdictRoutingOn.call(context({ routeByVerdict: false }).ctx, facts)).toBe(false);
	});
});

describe('readRules', () => {
	it('without thresholds: risk 0 and no category rules, the Review output as given', () => {
		expect(readRules.call(context({}).ctx, 0, false)).toEqual({ riskThreshold: 0, categoryThresholds: [], reviewOutput: false });
		expect(readRules.call(context({}).ctx, 0, true)).toEqual({ riskThreshold: 0, categoryThresholds: [], reviewOutput: true });
	});

	it('reads the item own thresholds, the custom category instead of the list one, trimmed', () => {
		const { ctx, calls } = context(
			{},
			{
				perItem: [
					{},
					{
						riskThreshold: '70',
						...thresholds(
							{ category: ' violence_gore ', threshold: 40 },
							{ category: '__custom', customCategory: ' Sexual_Activity\n', threshold: 55 },
							{ category: '', threshold: 0 },
						),
					},
				],
			},
		);
		expect(readRules.call(ctx, 1, true)).toEqual({
			riskThreshold: 70,
			categoryThresholds: [
				{ category: 'violence_gore', threshold: 40 },
				{ category: 'Sexual_Activity', threshold: 55 },
				{ category: '', threshold: 0 },
			],
			reviewOutput: true,
		});
		expect(calls).toEqual([
			['riskThreshold', 1],
			['categoryThresholds.thresholds', 1],
		]);
	});

	it('refuses a Risk Score Threshold that is not a number from 0 to 100, naming it and the item', () => {
		const error = caught(() => readRules.call(context({ riskThreshold: '70%' }).ctx, 2, false));
		expect(error.message).toBe('The Risk Score Threshold must be a number from 0 to 100, but it is "70%" [item 2]');
		expect(error.description).toMatch(/^Nothing was sent\./);
		expect(error.context.itemIndex).toBe(2);
		expect(error.node).toBe(NODE_);
	});

	it('refuses a category that is not a text, naming the list or the custom field', () => {
		const list = caught(() => readRules.call(context(thresholds({ category: 5, threshold: 40 })).ctx, 0, false));
		expect(list.message).toMatch(/^The Category of a Category Threshold must be a text, but the expression gave .* \[item 0\]$/);
		expect(list.description).toContain('{{ $json.category }}');
		const custom = caught(() =>
			readRules.call(context(thresholds({ category: '__custom', customCategory: { a: 1 }, threshold: 40 })).ctx, 0, false),
		);
		expect(custom.message).toMatch(/^The Custom Category of a Category Threshold must be a text/);
	});

	it('refuses a severity threshold that is not a number, naming its category', () => {
		const error = caught(() => readRules.call(context(thresholds({ category: 'violence_gore', threshold: 'high' })).ctx, 0, false));
		expect(error.message).toBe(
			'The Severity Threshold of the Category Threshold "violence_gore" must be a number from 0 to 100, but it is "high" [item 0]',
		);
	});

	it('refuses a threshold above 0 without a category (a rule silently off), not one of 0', () => {
		const list = caught(() => readRules.call(context(thresholds({ category: ' ', threshold: 1 })).ctx, 3, false));
		expect(list.message).toBe('The Category of a Category Threshold is empty [item 3]');
		expect(list.description).toBe(
			'Type the category name exactly as the service returns it (for example sexual_activity), or remove the row.',
		);
		const custom = caught(() =>
			readRules.call(context(thresholds({ category: '__custom', customCategory: '', threshold: 50 })).ctx, 0, false),
		);
		expect(custom.message).toBe('The Custom Category of a Category Threshold is empty [item 0]');
		expect(readRules.call(context(thresholds({ category: '__custom', threshold: 0 })).ctx, 0, false).categoryThresholds).toEqual([
			{ category: '', threshold: 0 },
		]);
	});
});

describe('readRoutingPlan', () => {
	it('defaults: Safe 0, Flagged 1, Review 2, the Review output off, input kept', () => {
		const { ctx } = context({}, { inputs: [{ json: {} }, { json: {} }] });
		const plan = readRoutingPlan.call(ctx);
		expect(plan).toEqual({
			reviewOutput: false,
			order: { safe: 0, flagged: 1, review: 2 },
			rules: [
				{ riskThreshold: 0, categoryThresholds: [], reviewOutput: false },
				{ riskThreshold: 0, categoryThresholds: [], reviewOutput: false },
			],
			keepInput: [true, true],
		});
		expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
	});

	it('reads Review output from the first item and keep input per item, both only when exactly true', () => {
		const { ctx, calls } = context(
			{ reviewOutput: true },
			{ inputs: [{ json: {} }, { json: {} }, { json: {} }], perItem: [{ keepInput: false }, { keepInput: 'yes' }, {}] },
		);
		const plan = readRoutingPlan.call(ctx, { safe: 1, flagged: 0, review: 3 });
		expect(plan.reviewOutput).toBe(true);
		expect(plan.order).toEqual({ safe: 1, flagged: 0, review: 3 });
		expect(plan.keepInput).toEqual([false, false, true]);
		expect(plan.rules.map((rules) => rules.reviewOutput)).toEqual([true, true, true]);
		expect(calls.filter(([name]) => name === 'reviewOutput')).toEqual([['reviewOutput', 0]]);
		expect(calls.filter(([name]) => name === 'keepInput')).toEqual([
			['keepInput', 0],
			['keepInput', 1],
			['keepInput', 2],
		]);
		expect(readRoutingPlan.call(context({ reviewOutput: 'true' }).ctx).reviewOutput).toBe(false);
	});

	it('an item whose rules cannot be read gets rules that flag it, with the reason; the others keep theirs', () => {
		const { ctx } = context(
			{ reviewOutput: true },
			{ inputs: [{ json: {} }, { json: {} }], perItem: [{ riskThreshold: 'x' }, { riskThreshold: 50 }] },
		);
		const plan = readRoutingPlan.call(ctx);
		expect(plan.rules).toEqual([
			{
				reviewOutput: true,
				refused: 'The Risk Score Threshold must be a number from 0 to 100, but it is "x" [item 0]',
			},
			{ riskThreshold: 50, categoryThresholds: [], reviewOutput: true },
		]);
	});
});

describe('firstPairedIndex', () => {
	it('reads a number, an object or the first of a list; none gives undefined', () => {
		expect(firstPairedIndex({ json: {}, pairedItem: 3 })).toBe(3);
		expect(firstPairedIndex({ json: {}, pairedItem: { item: 4 } })).toBe(4);
		expect(firstPairedIndex({ json: {}, pairedItem: [{ item: 5 }, { item: 6 }] })).toBe(5);
		expect(firstPairedIndex({ json: {}, pairedItem: [7, 8] })).toBe(7);
		expect(firstPairedIndex({ json: {} })).toBeUndefined();
		expect(firstPairedIndex({ json: {}, pairedItem: [] })).toBeUndefined();
	});
});

describe('isErrorItem', () => {
	it('an item with an error, or whose json holds only error, message and details with an error', () => {
		expect(isErrorItem({ json: { isSafe: true }, error: new NodeOperationError(NODE_, 'x') })).toBe(true);
		expect(isErrorItem({ json: { error: 'x' } })).toBe(true);
		expect(isErrorItem({ json: { error: 'x', message: 'm', details: {} } })).toBe(true);
		expect(isErrorItem({ json: { error: 'x', isSafe: true } })).toBe(false);
		expect(isErrorItem({ json: { message: 'm', details: {} } })).toBe(false);
		expect(isErrorItem({ json: {} })).toBe(false);
	});
});

const plan = (extra: Partial<RoutingPlan> = {}): RoutingPlan => ({
	reviewOutput: false,
	order: { safe: 0, flagged: 1, review: 2 },
	rules: [],
	keepInput: [],
	...extra,
});

const routing = (extra: Partial<RoutingInputs> = {}): RoutingInputs => ({
	node: NODE_,
	facts,
	plan: plan(),
	inputs: [],
	continueOnFail: false,
	...extra,
});

const clean = { isSafe: true };
const unsafe = { isSafe: false };
const review = { isSafe: true, suggestedActions: { review: true } };

describe('routeResults', () => {
	it('makes as many outputs as the order uses: Review only when on, a Timed Out output after it', () => {
		expect(routeResults(routing(), [])).toEqual([[], []]);
		expect(routeResults(routing({ plan: plan({ reviewOutput: true }) }), [])).toEqual([[], [], []]);
		const timedOutOrder = { safe: 0, flagged: 1, review: 2 };
		expect(routeResults(routing({ plan: plan({ order: { ...timedOutOrder, review: 3 } }) }), [])).toEqual([[], []]);
		expect(routeResults(routing({ plan: plan({ reviewOutput: true, order: { safe: 3, flagged: 0, review: 1 } }) }), [])).toEqual([
			[],
			[],
			[],
			[],
		]);
	});

	it('sends each result to its verdict output, without the input: the result with verdict and reasons', () => {
		const results = [
			{ json: clean, pairedItem: { item: 0 } },
			{ json: unsafe, pairedItem: { item: 1 } },
			{ json: review, pairedItem: { item: 2 } },
		];
		const outputs = routeResults(routing({ plan: plan({ reviewOutput: true, rules: [{}, {}, { reviewOutput: true }] }) }), results);
		expect(outputs).toStrictEqual([
			[{ json: { ...clean, verdict: 'safe', verdictReasons: ['no flag rule matched'] }, pairedItem: { item: 0 } }],
			[{ json: { ...unsafe, verdict: 'flagged', verdictReasons: ['isSafe is false'] }, pairedItem: { item: 1 } }],
			[
				{
					json: { ...review, verdict: 'review', verdictReasons: ['suggestedActions.review is true'] },
					pairedItem: { item: 2 },
				},
			],
		]);
	});

	it('uses the rules of the item the result is paired to; without them, only the plan Review output', () => {
		const rules = [{ riskThreshold: 50 }, { riskThreshold: 90 }];
		const risky = { isSafe: true, riskScores: { overall: 60 } };
		const outputs = routeResults(routing({ plan: plan({ rules }) }), [
			{ json: risky, pairedItem: 0 },
			{ json: risky, pairedItem: [{ item: 1 }] },
		]);
		expect(outputs[1]).toEqual([{ json: { ...risky, verdict: 'flagged', verdictReasons: ['riskScores.overall 60 >= threshold 50'] }, pairedItem: 0 }]);
		expect(outputs[0]).toEqual([{ json: { ...risky, verdict: 'safe', verdictReasons: ['no flag rule matched'] }, pairedItem: [{ item: 1 }] }]);

		const withoutRules = routeResults(routing({ plan: plan({ reviewOutput: true, rules: [] }) }), [{ json: review, pairedItem: 0 }]);
		expect(withoutRules[2]).toHaveLength(1);
	});

	it('an item whose rules were refused goes to Flagged with the reason', () => {
		const outputs = routeResults(routing({ plan: plan({ rules: [{ refused: 'bad threshold' }] }) }), [{ json: clean, pairedItem: 0 }]);
		expect(outputs).toEqual([[], [{ json: { ...clean, verdict: 'flagged', verdictReasons: ['bad threshold'] }, pairedItem: 0 }]]);
	});

	it('with the input kept: the input json and binary, the result under moderation, paired as the result', () => {
		const binary = { data: { data: 'AAAA', mimeType: 'image/png' } };
		const inputs = [{ json: { id: 'a', verdict: 'old' }, binary }, { json: { id: 'b' } }];
		const outputs = routeResults(routing({ inputs, plan: plan({ keepInput: [true] }) }), [
			{ json: clean, pairedItem: { item: 0 } },
			{ json: unsafe, pairedItem: { item: 1 } },
		]);
		expect(outputs).toStrictEqual([
			[
				{
					json: { id: 'a', moderation: clean, verdict: 'safe', verdictReasons: ['no flag rule matched'] },
					binary,
					pairedItem: { item: 0 },
				},
			],
			[{ json: { id: 'b', moderation: unsafe, verdict: 'flagged', verdictReasons: ['isSafe is false'] }, pairedItem: { item: 1 } }],
		]);
	});

	it('input not kept, or no input for the item: the result alone', () => {
		const inputs = [{ json: { id: 'a' } }];
		const outputs = routeResults(routing({ inputs, plan: plan({ keepInput: [false, true] }) }), [
			{ json: clean, pairedItem: 0 },
			{ json: clean, pairedItem: 1 },
		]);
		expect(outputs[0]).toStrictEqual([
			{ json: { ...clean, verdict: 'safe', verdictReasons: ['no flag rule matched'] }, pairedItem: 0 },
			{ json: { ...clean, verdict: 'safe', verdictReasons: ['no flag rule matched'] }, pairedItem: 1 },
		]);
	});

	it('a result without pairing is paired to item 0 and routed by its rules and input', () => {
		const outputs = routeResults(
			routing({ inputs: [{ json: { id: 'a' } }], plan: plan({ rules: [{ riskThreshold: 10 }], keepInput: [true] }) }),
			[{ json: { isSafe: true, riskScores: { overall: 10 } } }],
		);
		expect(outputs[1]).toStrictEqual([
			{
				json: {
					id: 'a',
					moderation: { isSafe: true, riskScores: { overall: 10 } },
					verdict: 'flagged',
					verdictReasons: ['riskScores.overall 10 >= threshold 10'],
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('error items go to Flagged unchanged, whatever Continue On Fail', () => {
		const error = { json: { error: 'The service is down' }, pairedItem: { item: 0 } };
		expect(routeResults(routing(), [error])).toStrictEqual([[], [error]]);
		const order = { safe: 2, flagged: 0, review: 1 };
		expect(routeResults(routing({ plan: plan({ order }) }), [error])).toStrictEqual([[error], [], []]);
	});

	it('a result without analysis: the generic error, thrown, or under Continue On Fail an error item in Flagged', () => {
		const ack = { json: { id: 'job-1' }, pairedItem: { item: 2 } };
		const thrown = caught(() => routeResults(routing(), [ack]));
		expect(thrown.message).toBe('The result has no analysis (no isSafe), so Route by Verdict cannot decide a verdict');
		expect(thrown.description).toBe(
			'Route by Verdict needs a full moderation result. Turn it off to pass such results through unchanged.',
		);
		expect(thrown.context.itemIndex).toBe(2);

		const outputs = routeResults(routing({ continueOnFail: true }), [ack, { json: { isSafe: 'yes' }, pairedItem: 0 }]);
		expect(outputs).toStrictEqual([
			[],
			[
				{ json: { error: thrown.message, details: { description: thrown.description } }, pairedItem: { item: 2 } },
				{ json: { error: thrown.message, details: { description: thrown.description } }, pairedItem: { item: 0 } },
			],
		]);
	});

	it('an operation own missing-analysis error and analysis place are used', () => {
		const seen: unknown[] = [];
		const own: VerdictFacts = {
			analysisOf: (result) => result.moderation as IDataObject | undefined,
			missingAnalysis: (node, result, itemIndex) => {
				seen.push([node, result, itemIndex]);
				return new NodeOperationError(node, 'Still queued', { itemIndex, description: 'Wait for it.' });
			},
		};
		const queued = { json: { id: 'q', status: 'queued' }, pairedItem: { item: 1 } };
		expect(() => routeResults(routing({ facts: own }), [queued])).toThrow('Still queued');
		expect(seen).toEqual([[NODE_, queued.json, 1]]);
		const done = { json: { id: 'q', moderation: unsafe }, pairedItem: { item: 0 } };
		const outputs = routeResults(routing({ facts: own, continueOnFail: true }), [queued, done]);
		expect(outputs[1]).toStrictEqual([
			{ json: { error: 'Still queued', details: { description: 'Wait for it.' } }, pairedItem: { item: 1 } },
			{ json: { ...done.json, verdict: 'flagged', verdictReasons: ['isSafe is false'] }, pairedItem: { item: 0 } },
		]);
	});
});

describe('routeByVerdict', () => {
	it('reads the plan, inputs, node and Continue On Fail from the context', () => {
		const inputs = [{ json: { id: 'a' } }, { json: { id: 'b' } }];
		const { ctx } = context({ reviewOutput: true }, { inputs, perItem: [{ keepInput: false }], continueOnFail: true });
		const outputs = routeByVerdict.call(ctx, facts, [
			{ json: review, pairedItem: 0 },
			{ json: { id: 'x' }, pairedItem: 1 },
			{ json: unsafe, pairedItem: 1 },
		]);
		expect(outputs).toStrictEqual([
			[],
			[
				{
					json: {
						error: 'The result has no analysis (no isSafe), so Route by Verdict cannot decide a verdict',
						details: {
							description:
								'Route by Verdict needs a full moderation result. Turn it off to pass such results through unchanged.',
						},
					},
					pairedItem: { item: 1 },
				},
				{ json: { id: 'b', moderation: unsafe, verdict: 'flagged', verdictReasons: ['isSafe is false'] }, pairedItem: 1 },
			],
			[{ json: { ...review, verdict: 'review', verdictReasons: ['suggestedActions.review is true'] }, pairedItem: 0 }],
		]);
		const strict = context({}, { inputs });
		expect(() => routeByVerdict.call(strict.ctx, facts, [{ json: {}, pairedItem: 0 }])).toThrow('Route by Verdict cannot decide');
	});
});
