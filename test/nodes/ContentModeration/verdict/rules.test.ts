import type { IDataObject } from 'n8n-workflow';
import {
	NSFW_CATEGORIES,
	decideVerdict,
	flaggedReasons,
	isCompleteResult,
	needsReview,
	type VerdictRules,
} from '@package/nodes/ContentModeration/verdict/rules';

/** A harmless result; each test changes one field. */
function result(overrides: IDataObject = {}): IDataObject {
	return {
		isSafe: true,
		confidence: 90,
		riskScores: { overall: 10, spam: 5, toxicity: 5 },
		nsfwCategories: [],
		suggestedActions: { reject: false, review: false },
		summary: { totalFlags: 0, contentRating: 'G', language: 'en' },
		hash: 'h',
		...overrides,
	};
}

describe('flaggedReasons', () => {
	it('is empty for a clean result, with or without rules', () => {
		expect(flaggedReasons(result())).toEqual([]);
		expect(
			flaggedReasons(result(), {
				riskThreshold: 50,
				categoryThresholds: [{ category: 'violence_gore', threshold: 10 }],
			}),
		).toEqual([]);
	});

	it('flags isSafe false', () => {
		expect(flaggedReasons(result({ isSafe: false }))).toEqual(['isSafe is false']);
	});

	it('flags suggestedActions.reject', () => {
		expect(flaggedReasons(result({ suggestedActions: { reject: true, review: false } }))).toEqual([
			'suggestedActions.reject is true',
		]);
	});

	it('flags riskScores.overall at and above the threshold, not below', () => {
		const at = result({ riskScores: { overall: 70, spam: 1, toxicity: 1 } });
		expect(flaggedReasons(at, { riskThreshold: 70 })).toEqual(['riskScores.overall 70 >= threshold 70']);
		expect(flaggedReasons(at, { riskThreshold: 69 })).toEqual(['riskScores.overall 70 >= threshold 69']);
		expect(flaggedReasons(at, { riskThreshold: 71 })).toEqual([]);
	});

	it('treats a missing or 0 risk threshold as off', () => {
		const high = result({ riskScores: { overall: 100, spam: 1, toxicity: 1 } });
		expect(flaggedReasons(high)).toEqual([]);
		expect(flaggedReasons(high, { riskThreshold: 0 })).toEqual([]);
		expect(flaggedReasons(high, { riskThreshold: Number.NaN })).toEqual([]);
	});

	it('flags a category severity at and above its threshold, not below, and only its own category', () => {
		const r = result({
			nsfwCategories: [
				{ category: 'violence_gore', severity: 40 },
				{ category: 'alcohol', severity: 90 },
			],
		});
		expect(flaggedReasons(r, { categoryThresholds: [{ category: 'violence_gore', threshold: 40 }] })).toEqual([
			'nsfwCategories violence_gore severity 40 >= threshold 40',
		]);
		expect(flaggedReasons(r, { categoryThresholds: [{ category: 'violence_gore', threshold: 41 }] })).toEqual([]);
		expect(flaggedReasons(r, { categoryThresholds: [{ category: 'gambling', threshold: 1 }] })).toEqual([]);
	});

	it('matches free-text categories not in the spec list, case-insensitively', () => {
		const r = result({ nsfwCategories: [{ category: 'sexual_activity', severity: 55 }] });
		expect(flaggedReasons(r, { categoryThresholds: [{ category: ' Sexual_Activity ', threshold: 55 }] })).toEqual([
			'nsfwCategories sexual_activity severity 55 >= threshold 55',
		]);
	});

	it("matches the service's category whatever its case and spaces", () => {
		const r = result({ nsfwCategories: [{ category: ' Violence_Gore ', severity: 80 }] });
		expect(flaggedReasons(r, { categoryThresholds: [{ category: 'violence_gore', threshold: 60 }] })).toEqual([
			'nsfwCategories  Violence_Gore  severity 80 >= threshold 60',
		]);
	});

	it('reads nothing from a result that is not an object, and does not throw (routing refuses it first: no analysis)', () => {
		for (const value of [null, 'flagged', 42, undefined]) {
			expect(isCompleteResult(value as unknown as IDataObject)).toBe(false);
			expect(flaggedReasons(value as unknown as IDataObject, { refused: 'unreadable rules' })).toEqual([]);
		}
	});

	it('ignores category rules with an empty or blank name or a 0 threshold', () => {
		// A blank category in the result is not matched by a blank rule either.
		const r = result({ nsfwCategories: [{ category: 'alcohol', severity: 99 }, { category: ' ', severity: 99 }] });
		expect(
			flaggedReasons(r, {
				categoryThresholds: [
					{ category: '', threshold: 1 },
					{ category: '  ', threshold: 1 },
					{ category: 'alcohol', threshold: 0 },
				],
			}),
		).toEqual([]);
	});

	it('skips malformed category rules (none, or a category that is not text) without throwing', () => {
		const r = result({ nsfwCategories: [{ category: 'alcohol', severity: 99 }] });
		const categoryThresholds = [null, undefined, { threshold: 1 }, { category: 7, threshold: 1 }, { category: 'alcohol', threshold: 50 }];
		expect(flaggedReasons(r, { categoryThresholds } as unknown as VerdictRules)).toEqual([
			'nsfwCategories alcohol severity 99 >= threshold 50',
		]);
	});

	it('lists every matched rule in the issue order', () => {
		const r = result({
			isSafe: false,
			suggestedActions: { reject: true, review: true },
			riskScores: { overall: 80, spam: 1, toxicity: 1 },
			nsfwCategories: [{ category: 'adult_content', severity: 95 }],
		});
		expect(
			flaggedReasons(r, {
				riskThreshold: 75,
				categoryThresholds: [{ category: 'adult_content', threshold: 90 }],
			}),
		).toEqual([
			'isSafe is false',
			'suggestedActions.reject is true',
			'riskScores.overall 80 >= threshold 75',
			'nsfwCategories adult_content severity 95 >= threshold 90',
		]);
	});

	it('accepts numeric strings as scores and tolerates malformed parts', () => {
		const r = result({
			riskScores: { overall: '70', spam: 1, toxicity: 1 },
			nsfwCategories: [null, 'x', { category: 'tobacco', severity: 'high' }],
		} as unknown as IDataObject);
		expect(
			flaggedReasons(r, { riskThreshold: 70, categoryThresholds: [{ category: 'tobacco', threshold: 1 }] }),
		).toEqual(['riskScores.overall 70 >= threshold 70']);
		expect(flaggedReasons({ riskScores: null, suggestedActions: 'no' } as unknown as IDataObject)).toEqual([]);
	});
});

describe('needsReview and isCompleteResult', () => {
	it('needsReview follows suggestedActions.review', () => {
		expect(needsReview(result({ suggestedActions: { reject: false, review: true } }))).toBe(true);
		expect(needsReview(result())).toBe(false);
		expect(needsReview({ id: 'abc' })).toBe(false);
	});

	it('isCompleteResult needs a boolean isSafe among the fields the rules read', () => {
		expect(isCompleteResult(result())).toBe(true);
		expect(isCompleteResult(result({ isSafe: false }))).toBe(true);
		expect(isCompleteResult({ id: 'abc' })).toBe(false);
		expect(isCompleteResult(result({ isSafe: 'true' }))).toBe(false);
	});
});

describe('decideVerdict', () => {
	const review = result({ suggestedActions: { reject: false, review: true } });

	it('is safe with a readable reason when nothing matches', () => {
		expect(decideVerdict(result(), {})).toEqual({ verdict: 'safe', reasons: ['no flag rule matched'] });
	});

	it('is review only when the Review output is on', () => {
		expect(decideVerdict(review, { reviewOutput: true })).toEqual({
			verdict: 'review',
			reasons: ['suggestedActions.review is true'],
		});
		const off = decideVerdict(review, { reviewOutput: false });
		expect(off.verdict).toBe('safe');
		expect(off.reasons[0]).toContain('Review output is off');
	});

	it('prefers flagged over review', () => {
		const both = result({ isSafe: false, suggestedActions: { reject: false, review: true } });
		expect(decideVerdict(both, { reviewOutput: true })).toEqual({
			verdict: 'flagged',
			reasons: ['isSafe is false'],
		});
	});

	it('flags through a threshold even when the service calls it safe', () => {
		const r = result({ riskScores: { overall: 50, spam: 1, toxicity: 1 } });
		expect(decideVerdict(r, { riskThreshold: 50, reviewOutput: true }).verdict).toBe('flagged');
		expect(decideVerdict(r, { riskThreshold: 51, reviewOutput: true }).verdict).toBe('safe');
	});
});

it('exports the spec category list', () => {
	expect(NSFW_CATEGORIES).toHaveLength(13);
	expect(NSFW_CATEGORIES).toContain('adult_content');
	expect(NSFW_CATEGORIES).toContain('political_content');
});

describe('rules that could not be read', () => {
	it('flag every result with the reason, a safe one too (fail closed)', () => {
		const safe = { isSafe: true, suggestedActions: { reject: false, review: false }, riskScores: { overall: 1 } };
		expect(decideVerdict(safe, { refused: 'The Risk Score Threshold must be a number' })).toEqual({
			verdict: 'flagged',
			reasons: ['The Risk Score Threshold must be a number'],
		});
	});
});
