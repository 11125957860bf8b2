/** A sample's refusals judged together: sporadic ones are no overload; those on top of the load are. */
import {
	AnswerSample,
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

	it('sends that all went out at the same load are no evidence either way', () => {
		const steady = Array.from({ length: 50 }, () => 50);
		expect(judge(steady, [0, 1, 2]).overloaded).toBe(false);
	});
});
