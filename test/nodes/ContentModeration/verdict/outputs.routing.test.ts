/**
 * Route by Verdict's routing of results: each to Safe, Flagged or Review (or the outputs of another order, as the
 * Timed Out one's), with or without the input item, paired as the result.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import type { RoutingInputs, RoutingPlan, VerdictFacts } from '@package/nodes/ContentModeration/verdict/outputs';
import { routeResults } from '@package/nodes/ContentModeration/verdict/outputs';

const NODE_ = { name: 'Content Moderation' } as INode;

const facts: VerdictFacts = { analysisOf: (result) => result };
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
const clean = { ...full, isSafe: true };
const unsafe = { ...full, isSafe: false };
const review = { ...full, isSafe: true, suggestedActions: { reject: false, review: true } };

describe('routeResults', () => {
	it('makes outputs up to the highest one the order uses: Review only when it is on', () => {
		expect(routeResults(routing(), [])).toEqual([[], []]);
		expect(routeResults(routing({ plan: plan({ reviewOutput: true }) }), [])).toEqual([[], [], []]);
		expect(routeResults(routing({ plan: plan({ order: { safe: 0, flagged: 1, review: 3 } }) }), [])).toEqual([[], []]);
		expect(
			routeResults(
				routing({
					plan: plan({
						reviewOutput: true,
						order: { safe: 3, flagged: 0, review: 1 },
					}),
				}),
				[],
			),
		).toEqual([[], [], [], []]);
	});

	it('sends each result to its verdict output, without the input: the result with verdict and reasons', () => {
		const results = [
			{ json: clean, pairedItem: { item: 0 } },
			{ json: unsafe, pairedItem: { item: 1 } },
			{ json: review, pairedItem: { item: 2 } },
		];
		const outputs = routeResults(
			routing({
				plan: plan({
					reviewOutput: true,
					rules: [{}, {}, { reviewOutput: true }],
				}),
			}),
			results,
		);
		expect(outputs).toStrictEqual([
			[
				{
					json: {
						...clean,
						verdict: 'safe',
						verdictReasons: ['no flag rule matched'],
					},
					pairedItem: { item: 0 },
				},
			],
			[
				{
					json: {
						...unsafe,
						verdict: 'flagged',
						verdictReasons: ['isSafe is false'],
					},
					pairedItem: { item: 1 },
				},
			],
			[
				{
					json: {
						...review,
						verdict: 'review',
						verdictReasons: ['suggestedActions.review is true'],
					},
					pairedItem: { item: 2 },
				},
			],
		]);
	});

	it('uses the rules of the item the result is paired to; without them, only the plan Review output', () => {
		const rules = [{ riskThreshold: 50 }, { riskThreshold: 90 }];
		const risky = { ...full, isSafe: true, riskScores: { overall: 60 } };
		const outputs = routeResults(routing({ plan: plan({ rules }) }), [
			{ json: risky, pairedItem: 0 },
			{ json: risky, pairedItem: [{ item: 1 }] },
		]);
		expect(outputs[1]).toEqual([
			{
				json: {
					...risky,
					verdict: 'flagged',
					verdictReasons: ['riskScores.overall 60 >= threshold 50'],
				},
				pairedItem: 0,
			},
		]);
		expect(outputs[0]).toEqual([
			{
				json: {
					...risky,
					verdict: 'safe',
					verdictReasons: ['no flag rule matched'],
				},
				pairedItem: [{ item: 1 }],
			},
		]);

		const withoutRules = routeResults(routing({ plan: plan({ reviewOutput: true, rules: [] }) }), [
			{ json: review, pairedItem: 0 },
		]);
		expect(withoutRules[2]).toHaveLength(1);
	});

	it('an item whose rules were refused goes to Flagged with the reason', () => {
		const outputs = routeResults(routing({ plan: plan({ rules: [{ refused: 'bad threshold' }] }) }), [
			{ json: clean, pairedItem: 0 },
		]);
		expect(outputs).toEqual([
			[],
			[
				{
					json: {
						...clean,
						verdict: 'flagged',
						verdictReasons: ['bad threshold'],
					},
					pairedItem: 0,
				},
			],
		]);
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
					json: {
						id: 'a',
						moderation: clean,
						verdict: 'safe',
						verdictReasons: ['no flag rule matched'],
					},
					binary,
					pairedItem: { item: 0 },
				},
			],
			[
				{
					json: {
						id: 'b',
						moderation: unsafe,
						verdict: 'flagged',
						verdictReasons: ['isSafe is false'],
					},
					pairedItem: { item: 1 },
				},
			],
		]);
	});

	it('input not kept, or no input for the item: the result alone', () => {
		const inputs = [{ json: { id: 'a' } }];
		const outputs = routeResults(routing({ inputs, plan: plan({ keepInput: [false, true] }) }), [
			{ json: clean, pairedItem: 0 },
			{ json: clean, pairedItem: 1 },
		]);
		expect(outputs[0]).toStrictEqual([
			{
				json: {
					...clean,
					verdict: 'safe',
					verdictReasons: ['no flag rule matched'],
				},
				pairedItem: 0,
			},
			{
				json: {
					...clean,
					verdict: 'safe',
					verdictReasons: ['no flag rule matched'],
				},
				pairedItem: 1,
			},
		]);
	});

	it('a result without pairing is paired to item 0 and routed by its rules and input', () => {
		const outputs = routeResults(
			routing({
				inputs: [{ json: { id: 'a' } }],
				plan: plan({ rules: [{ riskThreshold: 10 }], keepInput: [true] }),
			}),
			[{ json: { ...full, isSafe: true, riskScores: { overall: 10 } } }],
		);
		expect(outputs[1]).toStrictEqual([
			{
				json: {
					id: 'a',
					moderation: { ...full, isSafe: true, riskScores: { overall: 10 } },
					verdict: 'flagged',
					verdictReasons: ['riskScores.overall 10 >= threshold 10'],
				},
				pairedItem: { item: 0 },
			},
		]);
	});
});

describe("routeResults with a result's standing (Queue > Get Item)", () => {
	const standingFacts: VerdictFacts = {
		analysisOf: (result) => result.moderation as IDataObject,
		standingOf: (result) => (result.status === 'rejected' ? { flag: 'rejected by a person' } : result.status === 'pending' ? { review: 'not decided yet' } : undefined),
	};
	const item = (status: string, moderation: IDataObject) => ({ json: { status, moderation }, pairedItem: { item: 0 } });
	const verdictOf = (outputs: INodeExecutionData[][]) => outputs.flatMap((items, output) => items.map((i) => [output, i.json.verdict, i.json.verdictReasons]));

	it("a person's rejection flags a result the rules find clean", () => {
		const outputs = routeResults(routing({ facts: standingFacts }), [item('rejected', clean)]);
		expect(verdictOf(outputs)).toEqual([[1, 'flagged', ['rejected by a person']]]);
	});

	it('an undecided result the rules find clean goes to Review when it is on, else to Safe saying so', () => {
		expect(verdictOf(routeResults(routing({ facts: standingFacts, plan: plan({ reviewOutput: true }) }), [item('pending', clean)]))).toEqual([
			[2, 'review', ['not decided yet']],
		]);
		expect(verdictOf(routeResults(routing({ facts: standingFacts }), [item('pending', clean)]))).toEqual([
			[0, 'safe', ['no flag rule matched', 'not decided yet, but the Review output is off']],
		]);
	});

	it('an accepted result is judged by the rules alone: a person accepting does not clear a flag', () => {
		expect(verdictOf(routeResults(routing({ facts: standingFacts }), [item('accepted', unsafe)]))).toEqual([[1, 'flagged', ['isSafe is false']]]);
		expect(verdictOf(routeResults(routing({ facts: standingFacts }), [item('accepted', clean)]))).toEqual([[0, 'safe', ['no flag rule matched']]]);
	});
});
