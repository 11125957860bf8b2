/**
 * Route by Verdict's results that cannot be routed: error items to Flagged, results without an analysis (thrown,
 * or error items under Continue On Fail), pairing read from any pairedItem shape; and the whole from a context.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RoutingInputs, RoutingPlan, VerdictFacts } from '@package/nodes/ContentModeration/verdict/outputs';
import {
	firstPairedIndex,
	isErrorItem,
	routeByVerdict,
	routeResults,
} from '@package/nodes/ContentModeration/verdict/outputs';

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
function caught(run: () => unknown): NodeOperationError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('no error thrown');
}

describe('firstPairedIndex', () => {
	it('reads a number, an object or the first of a list; none gives undefined', () => {
		expect(firstPairedIndex({ json: {}, pairedItem: 3 })).toBe(3);
		expect(firstPairedIndex({ json: {}, pairedItem: { item: 4 } })).toBe(4);
		expect(firstPairedIndex({ json: {}, pairedItem: [{ item: 5 }, { item: 6 }] })).toBe(5);
		expect(firstPairedIndex({ json: {} })).toBeUndefined();
		expect(firstPairedIndex({ json: {}, pairedItem: [] })).toBeUndefined();
	});
});

describe('isErrorItem', () => {
	it('an item with an error, or whose json holds only error, message and details with an error', () => {
		expect(
			isErrorItem({
				json: { isSafe: true },
				error: new NodeOperationError(NODE_, 'x'),
			}),
		).toBe(true);
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

const full = { suggestedActions: { reject: false, review: false }, riskScores: { overall: 1 }, nsfwCategories: [] };
const unsafe = { ...full, isSafe: false };
const review = { ...full, isSafe: true, suggestedActions: { reject: false, review: true } };

describe('routeResults: results without a verdict', () => {
	it('error items go to Flagged unchanged, whatever Continue On Fail', () => {
		const error = {
			json: { error: 'The service is down' },
			pairedItem: { item: 0 },
		};
		expect(routeResults(routing(), [error])).toStrictEqual([[], [error]]);
		const order = { safe: 2, flagged: 0, review: 1 };
		expect(routeResults(routing({ plan: plan({ order }) }), [error])).toStrictEqual([[error], [], []]);
	});

	it('a result without analysis: the generic error, thrown, or under Continue On Fail an error item in Flagged', () => {
		const ack = { json: { id: 'job-1' }, pairedItem: { item: 2 } };
		const thrown = caught(() => routeResults(routing(), [ack]));
		expect(thrown.message).toBe('The result is not complete (no boolean isSafe), so Route by Verdict cannot decide a verdict');
		expect(thrown.description).toBe(
			'Route by Verdict needs a finished, full moderation result: read it again once the service has finished, or turn Route by Verdict off to pass such results through unchanged.',
		);
		expect(thrown.context.itemIndex).toBe(2);

		const outputs = routeResults(routing({ continueOnFail: true }), [ack, { json: { isSafe: 'yes' }, pairedItem: 0 }]);
		expect(outputs).toStrictEqual([
			[],
			[
				{
					json: {
						error: thrown.message,
						details: { description: thrown.description },
					},
					pairedItem: { item: 2 },
				},
				{
					json: {
						error: thrown.message,
						details: { description: thrown.description },
					},
					pairedItem: { item: 0 },
				},
			],
		]);
	});

	it('no analysis at all, and no own error for it: the generic error says so', () => {
		const none: VerdictFacts = { analysisOf: () => undefined };
		const thrown = caught(() => routeResults(routing({ facts: none }), [{ json: { id: 'q' }, pairedItem: { item: 0 } }]));
		expect(thrown.message).toBe('The result is not complete (no analysis), so Route by Verdict cannot decide a verdict');
	});

	it('an operation giving no own error: the generic one names what the analysis lacks', () => {
		const own: VerdictFacts = {
			analysisOf: (result) => result.moderation as IDataObject | undefined,
			missingAnalysis: (node, result) => (result.moderation ? undefined : new NodeOperationError(node, 'none yet')),
		};
		const half = { json: { id: 'q', moderation: { ...unsafe, riskScores: undefined } }, pairedItem: { item: 0 } };
		const thrown = caught(() => routeResults(routing({ facts: own }), [half]));
		expect(thrown.message).toBe(
			'The result is not complete (no riskScores.overall), so Route by Verdict cannot decide a verdict',
		);
	});

	it('an operation own missing-analysis error and analysis place are used', () => {
		const seen: unknown[] = [];
		const own: VerdictFacts = {
			analysisOf: (result) => result.moderation as IDataObject | undefined,
			missingAnalysis: (node, result, itemIndex) => {
				seen.push([node, result, itemIndex]);
				return new NodeOperationError(node, 'Still queued', {
					itemIndex,
					description: 'Wait for it.',
				});
			},
		};
		const queued = {
			json: { id: 'q', status: 'queued' },
			pairedItem: { item: 1 },
		};
		expect(() => routeResults(routing({ facts: own }), [queued])).toThrow('Still queued');
		expect(seen).toEqual([[NODE_, queued.json, 1]]);
		const done = {
			json: { id: 'q', moderation: unsafe },
			pairedItem: { item: 0 },
		};
		const outputs = routeResults(routing({ facts: own, continueOnFail: true }), [queued, done]);
		expect(outputs[1]).toStrictEqual([
			{
				json: {
					error: 'Still queued',
					details: { description: 'Wait for it.' },
				},
				pairedItem: { item: 1 },
			},
			{
				json: {
					...done.json,
					verdict: 'flagged',
					verdictReasons: ['isSafe is false'],
				},
				pairedItem: { item: 0 },
			},
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
						error: 'The result is not complete (no boolean isSafe), so Route by Verdict cannot decide a verdict',
						details: {
							description:
								'Route by Verdict needs a finished, full moderation result: read it again once the service has finished, or turn Route by Verdict off to pass such results through unchanged.',
						},
					},
					pairedItem: { item: 1 },
				},
				{
					json: {
						id: 'b',
						moderation: unsafe,
						verdict: 'flagged',
						verdictReasons: ['isSafe is false'],
					},
					pairedItem: 1,
				},
			],
			[
				{
					json: {
						...review,
						verdict: 'review',
						verdictReasons: ['suggestedActions.review is true'],
					},
					pairedItem: 0,
				},
			],
		]);
		const strict = context({}, { inputs });
		expect(() => routeByVerdict.call(strict.ctx, facts, [{ json: {}, pairedItem: 0 }])).toThrow(
			'Route by Verdict cannot decide',
		);
	});
});
