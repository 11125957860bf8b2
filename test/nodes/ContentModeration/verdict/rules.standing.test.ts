/** withStanding: what a result's own standing (a queue item's person) adds to the verdict the rules decided. */
import type { Verdict } from '@package/nodes/ContentModeration/verdict/rules';
import { withStanding } from '@package/nodes/ContentModeration/verdict/rules';

const safe: Verdict = { verdict: 'safe', reasons: ['no flag rule matched'] };
const review: Verdict = { verdict: 'review', reasons: ['suggestedActions.review is true'] };
const flagged: Verdict = { verdict: 'flagged', reasons: ['isSafe is false'] };
const REJECTED = 'a reviewer rejected it';
const PENDING = 'awaiting a reviewer';

describe('withStanding', () => {
	it('no standing: the rules decide alone', () => {
		for (const decided of [safe, review, flagged]) {
			expect(withStanding(decided, undefined, true)).toEqual(decided);
			expect(withStanding(decided, {}, false)).toEqual(decided);
		}
	});

	it("a flag wins over every verdict, named first; a Safe verdict's reason is dropped", () => {
		expect(withStanding(safe, { flag: REJECTED }, true)).toEqual({ verdict: 'flagged', reasons: [REJECTED] });
		expect(withStanding(review, { flag: REJECTED }, true)).toEqual({ verdict: 'flagged', reasons: [REJECTED] });
		expect(withStanding(flagged, { flag: REJECTED }, false)).toEqual({ verdict: 'flagged', reasons: [REJECTED, 'isSafe is false'] });
		// A flag wins over a review asked at the same time.
		expect(withStanding(safe, { flag: REJECTED, review: PENDING }, true).verdict).toBe('flagged');
	});

	it('a review moves only Safe, to Review when that output is on', () => {
		expect(withStanding(safe, { review: PENDING }, true)).toEqual({ verdict: 'review', reasons: [PENDING] });
		expect(withStanding(review, { review: PENDING }, true)).toEqual(review);
		expect(withStanding(flagged, { review: PENDING }, true)).toEqual(flagged);
	});

	it('a review with the Review output off stays Safe, and the reason says so', () => {
		expect(withStanding(safe, { review: PENDING }, false)).toEqual({
			verdict: 'safe',
			reasons: ['no flag rule matched', `${PENDING}, but the Review output is off`],
		});
		expect(withStanding(safe, { review: PENDING }, undefined).verdict).toBe('safe');
		expect(withStanding(flagged, { review: PENDING }, false)).toEqual(flagged);
	});
});
