/** state.ts's constants and finalOutputs, without and with Route by Verdict. */
import type { IDataObject } from 'n8n-workflow';

import { finalOutputs, STATE_KEY, type WaitState } from '@package/nodes/ContentModeration/actions/waitForCallback/state';
import { contentModerationNode } from '@test/helpers/fixtures';

test("the state's key in node context, saved with waiting executions, and the outputs without routing", () => {
	expect(STATE_KEY).toBe('waitForCallback');
	const state = { secret: 's', items: [{ id: 'm-0' }, { result: { id: 'm-1' } }, { error: { error: 'x' } }] };
	const outputs = finalOutputs(contentModerationNode, { analysisOf: (r) => r }, state, () => undefined, []);
	expect(outputs).toEqual([
		[
			{ json: {}, pairedItem: { item: 0 } },
			{ json: { id: 'm-1' }, pairedItem: { item: 1 } },
			{ json: { error: 'x' }, pairedItem: { item: 2 } },
		],
	]);
});

test('with Route by Verdict: each result, learned or kept from submission, routed; one not complete fails the run unless the state says continue on fail', () => {
	const facts = { analysisOf: (r: IDataObject) => r };
	const safe = { isSafe: true, suggestedActions: { reject: false, review: false }, riskScores: { overall: 1 }, nsfwCategories: [] };
	const unsafe = { ...safe, isSafe: false };
	const routing = { reviewOutput: false, order: { safe: 0, flagged: 1, review: 2 }, rules: [], keepInput: [] };
	const state: WaitState = { secret: 's', items: [{ id: 'm-0' }, { result: unsafe }], routing };
	const learned = (itemIndex: number, id: string) => (itemIndex === 0 && id === 'm-0' ? safe : undefined);
	expect(finalOutputs(contentModerationNode, facts, state, learned, [])).toEqual([
		[{ json: { ...safe, verdict: 'safe', verdictReasons: ['no flag rule matched'] }, pairedItem: { item: 0 } }],
		[{ json: { ...unsafe, verdict: 'flagged', verdictReasons: ['isSafe is false'] }, pairedItem: { item: 1 } }],
	]);
	const unknown = () => undefined;
	expect(() => finalOutputs(contentModerationNode, facts, state, unknown, [])).toThrow('The result is not complete');
	const [safeItems, flaggedItems] = finalOutputs(contentModerationNode, facts, { ...state, continueOnFail: true }, unknown, []);
	expect(safeItems).toEqual([]);
	expect(flaggedItems.map((item) => [item.pairedItem, typeof item.json.error])).toEqual([
		[{ item: 0 }, 'string'],
		[{ item: 1 }, 'undefined'],
	]);
});
