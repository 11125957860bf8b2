import { clampInteger } from '@package/nodes/ContentModeration/helpers/numbers';

describe('clampInteger', () => {
	it('takes numbers and numeric text, floors them and keeps them within min..max', () => {
		expect(clampInteger(5, 1, 10, 3)).toBe(5);
		expect(clampInteger('7', 1, 10, 3)).toBe(7);
		expect(clampInteger(' 4.9 ', 1, 10, 3)).toBe(4);
		expect(clampInteger(0, 1, 10, 3)).toBe(1);
		expect(clampInteger(99, 1, 10, 3)).toBe(10);
	});

	it('gives the fallback for what is not a number', () => {
		for (const value of ['', '  ', 'abc', undefined, null, NaN, Infinity, {}]) expect(clampInteger(value, 1, 10, 3)).toBe(3);
	});
});
