/** A sample's refusals judged together (sporadic ones are no overload; those on top of the load are), and the hold after them. */
import {
	AnswerSample,
	HOLD_MS,
	MAX_HOLD_MS,
	MIN_REFUSED,
	RefusalHold,
	RefusalJudge,
	tooManyRefused,
} from '@package/nodes/ContentModeration/limiter/refusals';

/** A sample of `loads.length` answers; `refused` holds the indexes refused. */
function judge(loads: number[], refused: number[]) {
	const sample = new AnswerSample();
	loads.forEach((load, i) => sample.add(load, refused.includes(i)));
	return sample.close();
}

const burst = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('AnswerSample', () => {
	it('one refusal alone, or refusals spread over the load, are sporadic', () => {
		expect(judge(burst(60), [59]).overloaded).toBe(false);
		// 6 of 60 (10%) at loads spread over the sample.
		expect(judge(burst(60), [3, 14, 22, 37, 45, 58])).toMatchObject({ overloaded: false, served: 54, refused: 6 });
	});

	it('refusals of the sends on top of the load are a full service: the sample served its capacity', () => {
		// 60 sent in one burst, the service takes 50: the last 10 refused (two swapped on the way).
		expect(judge(burst(60), [48, 51, 52, 53, 54, 55, 56, 57, 58, 59])).toEqual({ overloaded: true, served: 50, refused: 10 });
	});

	it('more refusals than a 10% sporadic rate explains (3 standard deviations) is overload wherever they sit', () => {
		// A sample of 20: 7 refused is overload, 5 (25%, what 10% faults give one sample in 25) is not.
		expect(judge(burst(20), [0, 2, 4, 6, 8, 10, 12]).overloaded).toBe(true);
		expect(judge(burst(20), [0, 2, 4, 6, 8, 10]).overloaded).toBe(false);
		expect(judge(burst(20), [0, 2, 4, 6, 8]).overloaded).toBe(false);
		// A sample of 500: 71 is overload (14%), 60 (12%) is not.
		const steady = Array.from({ length: 500 }, () => 100);
		expect(judge(steady, Array.from({ length: 71 }, (_, i) => i * 7)).overloaded).toBe(true);
		expect(judge(steady, Array.from({ length: 60 }, (_, i) => i * 7)).overloaded).toBe(false);
	});

	it('exactly 3 standard deviations above sporadic faults is overload', () => {
		// 100 answers: 10 expected, a standard deviation of 3.
		expect(tooManyRefused(19, 100)).toBe(true);
		expect(tooManyRefused(18, 100)).toBe(false);
	});

	it(`${MIN_REFUSED} refusals are enough when they sit on top of the load`, () => {
		expect(judge(burst(20), [18, 19])).toEqual({ overloaded: true, served: 18, refused: 2 });
	});

	it('3 of the 4 sends on top of the load refused (exactly TOP_SHARE) is overload', () => {
		expect(judge(burst(40), [0, 37, 38, 39]).overloaded).toBe(true);
		expect(judge(burst(40), [0, 1, 38, 39]).overloaded).toBe(false);
	});

	it('sends that all went out at the same load are no evidence either way', () => {
		const steady = Array.from({ length: 50 }, () => 50);
		expect(judge(steady, [0, 1, 2]).overloaded).toBe(false);
	});
});

describe('RefusalJudge', () => {
	it('judges a sample on its sampleSize-th answer', () => {
		const judge = new RefusalJudge(4);
		expect([judge.answered(1, false, 4), judge.answered(2, false, 4), judge.answered(3, true, 4)]).toEqual([
			{ grow: 0 },
			{ grow: 0 },
			{ grow: 0 },
		]);
		// The two refusals on top of the load: the sample served 2.
		expect(judge.answered(4, true, 4)).toEqual({ full: 2 });
	});

	it('growth held back by refusals on top of the load comes back when the sample ends, not with the next successes', () => {
		const judge = new RefusalJudge(20);
		judge.answered(1, true, 20);
		judge.answered(2, true, 20);
		expect(judge.holdsGrowth).toBe(true);
		// What slow start held back meanwhile.
		judge.pending = 4;
		// Successes come back after the refusals (those came at once): they do not say the sample is not full.
		for (let load = 3; load < 20; load++) expect(judge.answered(load, false, 20)).toEqual({ grow: 0 });
		expect(judge.answered(20, false, 20)).toEqual({ grow: 4 });
	});
});

describe('RefusalHold', () => {
	it('lets the limit grow freely until a refusal', () => {
		expect(new RefusalHold().allow(0, 10, 30)).toBe(30);
	});

	it('after a refusal: at most one above the new level until the hold ends', () => {
		const hold = new RefusalHold();
		hold.start(0, 10, 20);
		expect(hold.allow(1, 10, 30)).toBe(11);
		// Never below where the limit already is.
		expect(hold.allow(1, 15, 30)).toBe(15);
		expect(hold.allow(HOLD_MS, 11, 30)).toBe(30);
	});

	it('the hold doubles with each refusal while the limit stays below the refused level + 2', () => {
		const hold = new RefusalHold();
		hold.start(0, 10, 20);
		expect(hold.allow(1, 10, 30)).toBe(11);
		hold.start(1, 10, 20);
		expect(hold.allow(2, 10, 30)).toBe(11);
		hold.start(2, 10, 20);
		expect(hold.allow(2 + 4 * HOLD_MS - 1, 10, 30)).toBe(11);
		expect(hold.allow(2 + 4 * HOLD_MS, 10, 30)).toBe(30);
	});

	it('growing to the refused level + 1 keeps the doubled hold; to the refused level + 2 resets it', () => {
		const hold = new RefusalHold();
		hold.start(0, 10, 20);
		hold.start(0, 10, 20);
		expect(hold.allow(2 * HOLD_MS, 10, 21)).toBe(21);
		hold.start(2 * HOLD_MS, 10, 20);
		expect(hold.allow(6 * HOLD_MS - 1, 10, 30)).toBe(11);
		expect(hold.allow(6 * HOLD_MS, 10, 22)).toBe(22);
		hold.start(6 * HOLD_MS, 10, 20);
		expect(hold.allow(8 * HOLD_MS - 1, 10, 30)).toBe(11);
		expect(hold.allow(8 * HOLD_MS, 10, 30)).toBe(30);
	});

	it('each further refusal doubles the hold, up to MAX_HOLD_MS; passing the refused level resets it', () => {
		const hold = new RefusalHold();
		hold.start(0, 10, 20);
		hold.start(0, 10, 20);
		expect(hold.allow(2 * HOLD_MS - 1, 10, 30)).toBe(11);
		for (let i = 0; i < 5; i++) hold.start(0, 10, 20);
		expect(hold.allow(MAX_HOLD_MS - 1, 10, 30)).toBe(11);
		expect(hold.allow(MAX_HOLD_MS, 10, 30)).toBe(30);
		// Grown to the refused level + 2 without a refusal: the next hold is back to twice HOLD_MS, not 60 s.
		expect(hold.allow(MAX_HOLD_MS, 21, 22)).toBe(22);
		hold.start(MAX_HOLD_MS, 10, 20);
		expect(hold.allow(MAX_HOLD_MS + 2 * HOLD_MS - 1, 10, 30)).toBe(11);
		expect(hold.allow(MAX_HOLD_MS + 2 * HOLD_MS, 10, 30)).toBe(30);
	});
});
