/** The stores of the process state (helpers/boundedMap.ts) on a fake clock: their bounds in entries and time. */
import { BoundedMap, type Bounds } from '@package/nodes/ContentModeration/helpers/boundedMap';
import { FakeClock } from '@test/helpers/fakeClock';

const keys = (map: BoundedMap<string, number>, candidates: string[]) => candidates.filter((key) => map.get(key) !== undefined);
function store(bounds: Bounds) {
	const clock = new FakeClock();
	return { clock, map: new BoundedMap<string, number>(bounds, clock) };
}

test('keeps at most maxEntries, forgetting the oldest first; setting a key again makes it the newest', () => {
	const { map } = store({ maxEntries: 3, ttlMs: Infinity });
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

test('forgets an entry ttlMs after it was set, not a millisecond before; setting it again starts anew', async () => {
	const { clock, map } = store({ maxEntries: 10, ttlMs: 1_000 });
	map.set('a', 1);
	await clock.advance(500);
	map.set('b', 2);
	await clock.advance(499);
	expect(keys(map, ['a', 'b'])).toEqual(['a', 'b']);
	map.set('b', 3);
	await clock.advance(1);
	expect(keys(map, ['a', 'b'])).toEqual(['b']);
	expect(map.size).toBe(1);
	await clock.advance(999);
	expect(map.size).toBe(0);
});

test('with deadlines of their own, an expired entry goes at the next use wherever it sits', async () => {
	const { clock, map } = store({ maxEntries: 10, ttlMs: 60_000, expiry: 'deadline' });
	map.set('long', 1, clock.time + 600_000);
	map.set('short', 2, clock.time + 1_000);
	map.set('default', 3);
	await clock.advance(1_000);
	expect(map.size).toBe(2);
	expect(keys(map, ['long', 'short', 'default'])).toEqual(['long', 'default']);
	await clock.advance(59_000);
	expect(keys(map, ['long', 'short', 'default'])).toEqual(['long']);
});

test("idle entries are never dropped by time alone, only by their owner's dropWhere", async () => {
	const { clock, map } = store({ maxEntries: 10, ttlMs: 1_000, expiry: 'idle' });
	map.set('busy', 1);
	map.set('idle', 0);
	await clock.advance(1_000_000);
	expect(map.size).toBe(2);
	map.dropWhere((value) => value === 0);
	expect(keys(map, ['busy', 'idle'])).toEqual(['busy']);
});

test("an entry past its owner's own expiry is forgotten when read, though set after a live one", async () => {
	const { clock, map } = store({ maxEntries: 10, ttlMs: 60_000 });
	map.set('live', 1, clock.now() + 10_000);
	map.set('early', 2, clock.now() + 1_000);
	await clock.advance(2_000);
	expect(map.get('early')).toBeUndefined();
	expect(map.size).toBe(1);
});

test('an entry whose own expiry is exactly now is gone when read, though the sweep stops before it', async () => {
	const { clock, map } = store({ maxEntries: 10, ttlMs: 60_000 });
	map.set('live', 1, clock.now() + 10_000);
	map.set('edge', 2, clock.now() + 1_000);
	await clock.advance(1_000);
	expect(map.get('edge')).toBeUndefined();
	expect(map.get('live')).toBe(1);
});

test('a read sweeps every expired entry: a later dropWhere is asked only about live ones', async () => {
	const { clock, map } = store({ maxEntries: 10, ttlMs: 1_000 });
	map.set('old', 1);
	await clock.advance(500);
	map.set('new', 2);
	await clock.advance(500);
	expect(map.get('new')).toBe(2);
	// dropWhere does not sweep by itself: without the read's sweep it would be shown the expired value too.
	const asked: number[] = [];
	map.dropWhere((value) => {
		asked.push(value);
		return false;
	});
	expect(asked).toEqual([2]);
});

test('with deadlines of their own, expired entries make room before a live one is pushed out', async () => {
	const { clock, map } = store({ maxEntries: 2, ttlMs: 60_000, expiry: 'deadline' });
	map.set('live', 1, clock.time + 10_000);
	map.set('short', 2, clock.time + 1_000);
	await clock.advance(1_000);
	map.set('new', 3);
	expect(keys(map, ['live', 'short', 'new'])).toEqual(['live', 'new']);
});

test('clear forgets the old expiries too: an entry set afterwards expires on time', async () => {
	const { clock, map } = store({ maxEntries: 10, ttlMs: 60_000 });
	map.set('before', 1, clock.now() + 10_000);
	map.clear();
	map.set('after', 2, clock.now() + 1_000);
	await clock.advance(1_000);
	// A leftover live expiry of 'before' would stop the sweep ahead of 'after', which size would still count.
	expect(map.size).toBe(0);
});
