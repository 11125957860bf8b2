/** The one completion rule (verdict/rules.ts), and the read answers the callbacks take by it (inbound/completion.ts). */
import fc from 'fast-check';
import { test as property } from '@fast-check/jest';
import type { IDataObject } from 'n8n-workflow';

import { completedWith, isCompletion, VERDICT_FIELDS } from '@package/nodes/ContentModeration/inbound/completion';
import { incompleteness, isCompleteResult } from '@package/nodes/ContentModeration/verdict/rules';
import { imageResult, textResult } from '@test/helpers/callbackBodies';

/** Each way a result can lack what Route by Verdict reads, with what the rule says of it. */
const GAPS: Array<[string, (result: IDataObject) => void, string]> = [
	['isSafe null', (r) => (r.isSafe = null), 'no boolean isSafe'],
	['isSafe "true"', (r) => (r.isSafe = 'true'), 'no boolean isSafe'],
	['no isSafe', (r) => delete r.isSafe, 'no boolean isSafe'],
	['status processing', (r) => (r.status = 'processing'), 'its status says it is unfinished'],
	['status pending', (r) => (r.status = 'pending'), 'its status says it is unfinished'],
	['no suggestedActions', (r) => delete r.suggestedActions, 'no suggestedActions.reject and .review'],
	['suggestedActions without review', (r) => (r.suggestedActions = { reject: false }), 'no suggestedActions.reject and .review'],
	['suggestedActions.reject "false"', (r) => (r.suggestedActions = { reject: 'false', review: false }), 'no suggestedActions.reject and .review'],
	['no riskScores', (r) => delete r.riskScores, 'no riskScores.overall'],
	['riskScores without overall', (r) => (r.riskScores = { spam: 2 }), 'no riskScores.overall'],
	['riskScores.overall NaN text', (r) => (r.riskScores = { overall: 'high' }), 'no riskScores.overall'],
	['no nsfwCategories', (r) => delete r.nsfwCategories, 'no nsfwCategories with category and severity'],
	['nsfwCategories an object', (r) => (r.nsfwCategories = {}), 'no nsfwCategories with category and severity'],
	['a category without severity', (r) => (r.nsfwCategories = [{ category: 'gambling' }]), 'no nsfwCategories with category and severity'],
	['a severity without category', (r) => (r.nsfwCategories = [{ severity: 90 }]), 'no nsfwCategories with category and severity'],
];

test('a full image or text result is complete, with or without a finished status', () => {
	expect(incompleteness(imageResult())).toBeUndefined();
	expect(incompleteness(textResult())).toBeUndefined();
	expect(isCompleteResult({ ...imageResult(), status: 'completed' })).toBe(true);
	// The rule reads only what the verdict rules read: a result without hash or description is still judged.
	const { hash: _h, description: _d, summary: _s, ...slim } = imageResult();
	expect(isCompleteResult(slim)).toBe(true);
});

test.each(GAPS)('%s: incomplete', (_name, change, why) => {
	const result = imageResult();
	change(result);
	expect(incompleteness(result)).toBe(why);
	expect(isCompletion(200, result)).toBe(false);
});

test('what is not an object, a deferred acknowledgement, or a 202 is no completion', () => {
	expect([null, undefined, '', 'x', 3, []].map(incompleteness)).toEqual(Array(6).fill('no result object'));
	expect(isCompletion(200, { id: 'x' })).toBe(false);
	expect(isCompletion(200, { id: 'x', isSafe: true })).toBe(false);
	expect(isCompletion(202, imageResult())).toBe(false);
	expect(isCompletion(200, imageResult())).toBe(true);
});

test("completedWith: the read's verdict fields only, the callback's other fields kept", () => {
	const callback = { id: 'm', isSafe: true, status: 'processing', suggestedActions: { x: 1 }, note: 'mine' };
	const read = imageResult('m', { isSafe: false });
	const merged = completedWith(callback, read);
	expect(merged).toEqual({ ...read, note: 'mine' });
	// The callback's stale status stays out even where the read carries none.
	expect(merged.status).toBeUndefined();
});

const json = fc.jsonValue({ maxDepth: 2 });

property.prop([fc.constantFrom(...GAPS.map(([name]) => name)), fc.dictionary(fc.string(), json, { maxKeys: 4 })])(
	'any gap stays incomplete whatever other fields come with it',
	(gapName, extra) => {
		const [, change] = GAPS.find(([name]) => name === gapName) as (typeof GAPS)[number];
		const result = { ...extra, ...imageResult() };
		change(result);
		expect(isCompleteResult(result)).toBe(false);
	},
);

property.prop([fc.dictionary(fc.string().filter((key) => !VERDICT_FIELDS.includes(key)), json, { maxKeys: 6 })])(
	'a complete result stays complete whatever other fields it carries',
	(extra) => {
		expect(isCompleteResult({ ...imageResult(), ...extra })).toBe(true);
		expect(isCompleteResult({ ...textResult(), ...extra })).toBe(true);
	},
);

test('completedWith with nothing read: every verdict field of the callback is left out', () => {
	const callback = { id: 'm', isSafe: true, status: 'done', suggestedActions: {}, riskScores: { overall: 1 }, nsfwCategories: [], note: 'mine' };
	expect(completedWith(callback, {})).toStrictEqual({ id: 'm', note: 'mine' });
});

test('a category entry that is not an object (null, a text) is not judged', () => {
	expect(incompleteness(imageResult('m', { nsfwCategories: [null] }))).toBe('no nsfwCategories with category and severity');
	expect(incompleteness(imageResult('m', { nsfwCategories: ['violence'] }))).toBe('no nsfwCategories with category and severity');
	expect(incompleteness(imageResult('m', { suggestedActions: null, riskScores: null }))).toBe('no suggestedActions.reject and .review');
	expect(incompleteness(imageResult('m', { riskScores: null }))).toBe('no riskScores.overall');
});
