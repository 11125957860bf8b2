/**
 * Route by Verdict's reading of the node parameters, on a fake context: the rules of each item (refused with the
 * field and item named), the Review output, Keep Input and the output order.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { VerdictFacts } from '@package/nodes/ContentModeration/verdict/outputs';
import { isVerdictRoutingOn, readRoutingPlan, readRules } from '@package/nodes/ContentModeration/verdict/outputs';

const NODE_ = { name: 'Content Moderation' } as INode;

type Params = Record<string, unknown>;

/** A context whose parameters are `shared`, overridden per item by `perItem[itemIndex]`; absent ones give the fallback. */
function context(
	shared: Params,
	options: {
		perItem?: Params[];
		inputs?: INodeExecutionData[];
		continueOnFail?: boolean;
	} = {},
) {
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
const thresholds = (...rows: IDataObject[]) => ({
	'categoryThresholds.thresholds': rows,
});

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
		expect(readRules.call(context({}).ctx, 0, false)).toEqual({
			riskThreshold: 0,
			categoryThresholds: [],
			reviewOutput: false,
		});
		expect(readRules.call(context({}).ctx, 0, true)).toEqual({
			riskThreshold: 0,
			categoryThresholds: [],
			reviewOutput: true,
		});
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
							{
								category: '__custom',
								customCategory: ' Sexual_Activity\n',
								threshold: 55,
							},
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
		expect(list.message).toMatch(
			/^The Category of a Category Threshold must be a text, but the expression gave .* \[item 0\]$/,
		);
		expect(list.description).toContain('{{ $json.category }}');
		const custom = caught(() =>
			readRules.call(
				context(
					thresholds({
						category: '__custom',
						customCategory: { a: 1 },
						threshold: 40,
					}),
				).ctx,
				0,
				false,
			),
		);
		expect(custom.message).toMatch(/^The Custom Category of a Category Threshold must be a text/);
	});

	it('refuses a severity threshold that is not a number, naming its category', () => {
		const error = caught(() =>
			readRules.call(context(thresholds({ category: 'violence_gore', threshold: 'high' })).ctx, 0, false),
		);
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
			readRules.call(
				context(
					thresholds({
						category: '__custom',
						customCategory: '',
						threshold: 50,
					}),
				).ctx,
				0,
				false,
			),
		);
		expect(custom.message).toBe('The Custom Category of a Category Threshold is empty [item 0]');
		expect(
			readRules.call(context(thresholds({ category: '__custom', threshold: 0 })).ctx, 0, false).categoryThresholds,
		).toEqual([{ category: '', threshold: 0 }]);
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
			{
				inputs: [{ json: {} }, { json: {} }, { json: {} }],
				perItem: [{ keepInput: false }, { keepInput: 'yes' }, {}],
			},
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
			{
				inputs: [{ json: {} }, { json: {} }],
				perItem: [{ riskThreshold: 'x' }, { riskThreshold: 50 }],
			},
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
