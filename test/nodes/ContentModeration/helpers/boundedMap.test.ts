/** The bounded map of the process-wide registries: the oldest go first, expired ones from the oldest on. */
import { BoundedMap } from '@package/nodes/ContentModeration/helpers/boundedMap';

const keys = (map: BoundedMap<string, number>, candidates: string[]) => candidates.filter((key) => map.has(key));

test('keeps at most its bound, forgetting the oldest first; setting a key again makes it the newest', () => {
	const map = new BoundedMap<string, number>(3);
	for (const [i, key] of ['a', 'b', 'c'].entries()) map.set(key, i);
	map.set('a', 10);
	map.set('d', 3);
	expect(map.size).toBe(3);
	expect(keys(map, ['a', 'b', 'c', 'd'])).toEqual(['a', 'c', 'd']);
	expect(map.get('a')).toBe(10);
	map.delete('c');
	expect(keys(map, ['a', 'c', 'd'])).toEqual(['a', 'd']);
	map.clear();
	expect(map.size).toBe(0);
});

test('drops entries from the oldest while they are expired, and stops at the first that is not', () => {
	const map = new BoundedMap<string, number>(10);
	for (const [key, expiresAt] of [['a', 1], ['b', 2], ['c', 9], ['d', 3]] as const) map.set(key, expiresAt);
	map.dropOldestWhile((expiresAt) => expiresAt <= 5);
	// 'd' expired too, but sits behind 'c': it goes when it reaches the front or is looked up.
	expect(keys(map, ['a', 'b', 'c', 'd'])).toEqual(['c', 'd']);
});
