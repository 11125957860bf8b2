import { isObject } from '@package/nodes/ContentModeration/helpers/json';

describe('isObject', () => {
	it('holds for plain objects only', () => {
		expect(isObject({})).toBe(true);
		expect(isObject({ a: 1 })).toBe(true);
		for (const value of [null, undefined, [], [1], 'x', 1, true, Buffer.from('x')]) expect(isObject(value)).toBe(false);
	});
});
