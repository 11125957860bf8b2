/**
 * THE completion rule (incompleteness): what a result lacks before Route by Verdict, the callbacks and the
 * read-backs may judge it. Its words end up in the item's error ("The result is not complete (…)").
 */
import type { IDataObject } from 'n8n-workflow';

import { incompleteness, isCompleteResult } from '@package/nodes/ContentModeration/verdict/rules';

/** A finished result with every field the rules read; each case changes one. */
function complete(overrides: IDataObject = {}): IDataObject {
	return {
		isSafe: true,
		riskScores: { overall: 10 },
		nsfwCategories: [{ category: 'alcohol', severity: 20 }],
		suggestedActions: { reject: false, review: false },
		...overrides,
	};
}

const UNFINISHED = 'its status says it is unfinished';
const NO_ACTIONS = 'no suggestedActions.reject and .review';
const NO_RISK = 'no riskScores.overall';
const NO_CATEGORIES = 'no nsfwCategories with category and severity';

it('finds nothing missing in a finished result, scores as numeric text included', () => {
	expect(incompleteness(complete())).toBeUndefined();
	expect(incompleteness(complete({ status: 'completed', riskScores: { overall: '10' } }))).toBeUndefined();
	expect(incompleteness(complete({ nsfwCategories: [] }))).toBeUndefined();
	expect(isCompleteResult(complete())).toBe(true);
});

it.each<[string, unknown, string]>([
	['not an object', null, 'no result object'],
	['without isSafe', complete({ isSafe: undefined }), 'no boolean isSafe'],
	['still processing', complete({ status: 'processing' }), UNFINISHED],
	['still pending', complete({ status: 'pending' }), UNFINISHED],
	['without suggestedActions', complete({ suggestedActions: undefined }), NO_ACTIONS],
	['without suggestedActions.reject', complete({ suggestedActions: { review: false } }), NO_ACTIONS],
	['without suggestedActions.review', complete({ suggestedActions: { reject: false } }), NO_ACTIONS],
	['without riskScores', complete({ riskScores: undefined }), NO_RISK],
	['with a riskScores.overall that is no number', complete({ riskScores: { overall: 'high' } }), NO_RISK],
	['without nsfwCategories', complete({ nsfwCategories: undefined }), NO_CATEGORIES],
	['with a category entry that is not an object', complete({ nsfwCategories: [null] }), NO_CATEGORIES],
	['with a category entry without its name', complete({ nsfwCategories: [{ severity: 90 }] }), NO_CATEGORIES],
	['with a category entry without a severity', complete({ nsfwCategories: [{ category: 'gambling' }] }), NO_CATEGORIES],
	// One unjudged entry is enough, even after a judged one.
	[
		'with one of two category entries unjudged',
		complete({ nsfwCategories: [{ category: 'alcohol', severity: 20 }, { category: 'gambling' }] }),
		NO_CATEGORIES,
	],
])('a result %s is incomplete, saying what it lacks', (_name, result, why) => {
	expect(incompleteness(result)).toBe(why);
	expect(isCompleteResult(result)).toBe(false);
});

it('names the first thing missing, in the order the rule reads them', () => {
	expect(incompleteness({ status: 'processing' })).toBe('no boolean isSafe');
	expect(incompleteness({ isSafe: false, status: 'pending' })).toBe(UNFINISHED);
	expect(incompleteness({ isSafe: false })).toBe(NO_ACTIONS);
	expect(incompleteness({ isSafe: false, suggestedActions: { reject: true, review: true } })).toBe(NO_RISK);
});
