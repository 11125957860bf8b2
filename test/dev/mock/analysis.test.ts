import { contentRating, REJECT_AT, REVIEW_AT, verdict } from '../../../dev/mock/analysis';

describe('verdict rules', () => {
	it('rejects from REJECT_AT and asks review from REVIEW_AT', () => {
		expect(verdict(REVIEW_AT - 1)).toEqual({ isSafe: true, review: false, reject: false });
		expect(verdict(REVIEW_AT)).toEqual({ isSafe: true, review: true, reject: false });
		expect(verdict(REJECT_AT - 1)).toEqual({ isSafe: true, review: true, reject: false });
		expect(verdict(REJECT_AT)).toEqual({ isSafe: false, review: false, reject: true });
	});

	it('rates by the highest severity', () => {
		expect([0, 19, 20, 39, 40, 59, 60, 79, 80].map(contentRating)).toEqual([
			'G', 'G', 'PG', 'PG', 'PG-13', 'PG-13', 'R', 'R', 'NC-17',
		]);
	});
});
