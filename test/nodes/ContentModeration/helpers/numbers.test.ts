import { clampInteger, finiteNumber } from '@package/nodes/ContentModeration/helpers/numbers';

describe('finiteNumber', () => {
	it('takes finite numbers and numeric text as they are', () => {
		expect(finiteNumber(70)).toBe(70);
		expect(finiteNumber(' 70 ')).toBe(70);
		expect(finiteNumber('4.5')).toBe(4.5);
		expect(finiteNumber(-1)).toBe(-1);
	});

	it('refuses what is not a number: empty or blank text, "70%", NaN, Infinity, objects, booleans, null', () => {
		for (const value of ['', '  ', '70%', NaN, Infinity, '-Infinity', {}, [], true, null, undefined]) expect(finiteNumber(value)).toBeUndefined();
	});
});

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
