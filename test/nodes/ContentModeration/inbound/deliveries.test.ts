/** The process-wide memory of started completions, on a fake clock. */
import v8 from 'node:v8';
import vm from 'node:vm';

import { PROCESS_STATE } from '@package/nodes/ContentModeration/helpers/processState';
import { completionKey, deliveryKey, DeliveryRegistry } from '@package/nodes/ContentModeration/inbound/deliveries';
import { FakeClock } from '@test/helpers/fakeClock';
import { storesOn } from '@test/helpers/stores';

const { maxEntries: MAX_REMEMBERED, ttlMs: REMEMBER_MS } = PROCESS_STATE.startedCompletions;

function registry(bounds = { ttlMs: 60_000, maxEntries: 100 }) {
	const clock = new FakeClock();
	return { clock, deliveries: new DeliveryRegistry(storesOn(clock, { startedCompletions: bounds })) };
}

function startedOnce(deliveries: DeliveryRegistry, key: string): void {
	const claim = deliveries.claim(key);
	if (claim.kind !== 'held') throw new Error(`expected to hold ${key}, got ${claim.kind}`);
	claim.commit();
}

test('a committed key is a duplicate; a released one is free again', () => {
	const { deliveries } = registry();
	startedOnce(deliveries, 'a');
	expect(deliveries.claim('a')).toEqual({ kind: 'duplicate' });

	const refused = deliveries.claim('b');
	expect(refused.kind).toBe('held');
	if (refused.kind === 'held') refused.release();
	expect(deliveries.claim('b').kind).toBe('held');
});

test('a second claim while the first is handled waits for its outcome', async () => {
	const { deliveries } = registry();
	const first = deliveries.claim('k');
	expect(deliveries.claim('k').kind).toBe('inFlight');

	const waiting = deliveries.claimWhenFree('k');
	if (first.kind === 'held') first.commit();
	await expect(waiting).resolves.toEqual({ kind: 'duplicate' });

	// The first fails instead: the waiting delivery takes over.
	const failing = deliveries.claim('j');
	const takeover = deliveries.claimWhenFree('j');
	if (failing.kind === 'held') failing.release();
	expect((await takeover).kind).toBe('held');
	expect(deliveries.inFlight).toBe(1);
});

test('commit and release after each other count once', () => {
	const { deliveries } = registry();
	const claim = deliveries.claim('x');
	if (claim.kind !== 'held') throw new Error('not held');
	claim.commit();
	claim.release();
	expect(deliveries.claim('x')).toEqual({ kind: 'duplicate' });
	expect(deliveries.inFlight).toBe(0);
});

test('a completion is forgotten after the TTL, counted from its start', async () => {
	const { clock, deliveries } = registry({ ttlMs: 60_000, maxEntries: 100 });
	startedOnce(deliveries, 'a');
	await clock.advance(59_999);
	expect(deliveries.claim('a').kind).toBe('duplicate');
	await clock.advance(1);
	expect(deliveries.claim('a').kind).toBe('held');
});

test('memory stays bounded under a long stream of distinct ids, oldest forgotten first', async () => {
	const { clock, deliveries } = registry({ ttlMs: 60_000, maxEntries: 100 });
	for (let i = 0; i < 10_000; i++) {
		startedOnce(deliveries, `id-${i}`);
		if (i % 7 === 0) await clock.advance(1);
		expect(deliveries.size).toBeLessThanOrEqual(100);
	}
	expect(deliveries.size).toBe(100);
	expect(deliveries.claim('id-9999').kind).toBe('duplicate');
	expect(deliveries.claim('id-9899').kind).toBe('held');
	// Quiet time: expired entries go on the next use, no timer needed.
	await clock.advance(60_000);
	deliveries.claim('late');
	expect(deliveries.size).toBe(0);
});

/** V8's collector, also where the test runner was started without --expose-gc: only what is kept is counted. */
function collectGarbage(): () => void {
	v8.setFlagsFromString('--expose-gc');
	return vm.runInNewContext('gc') as () => void;
}

/** Measured here: about 140 bytes per remembered completion (Node 20): its key's hash and when it expires. */
const BYTES_PER_ENTRY_CEILING = 160;
/** What the registry may hold in all, at its bound (its comment promises a few MB). */
const REGISTRY_CEILING_BYTES = 8 * 1024 * 1024;

test('the process registry keeps a day and at most MAX_REMEMBERED hashes, about 140 bytes each, a few MB in all', () => {
	expect(REMEMBER_MS).toBe(24 * 60 * 60_000);
	const gc = collectGarbage();
	const deliveries = new DeliveryRegistry(storesOn(new FakeClock()));
	gc();
	const before = process.memoryUsage().heapUsed;
	for (let i = 0; i < MAX_REMEMBERED + 5_000; i++) startedOnce(deliveries, deliveryKey(['wf', 'node', 'moderation.completed', `id-${i}`]));
	expect(deliveries.size).toBe(MAX_REMEMBERED);
	gc();
	const perEntry = (process.memoryUsage().heapUsed - before) / MAX_REMEMBERED;
	if (process.env.SHOW_BYTES) process.stdout.write(`bytes per remembered completion: ${perEntry.toFixed(0)}\n`);
	expect(perEntry).toBeLessThan(BYTES_PER_ENTRY_CEILING);
	expect(perEntry * MAX_REMEMBERED).toBeLessThan(REGISTRY_CEILING_BYTES);
});

test('the key is a hash: no id, event or decision in it', () => {
	const key = deliveryKey(['wf1', 'node', 'queue.review.completed', 'item-42', 'accepted', 'true']);
	expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
	expect(key).not.toContain('item-42');
	expect(deliveryKey(['wf1', 'node', 'queue.review.completed', 'item-42', 'rejected', 'false'])).not.toBe(key);
	// Parts cannot run into each other.
	expect(deliveryKey(['a', 'bc'])).not.toBe(deliveryKey(['ab', 'c']));
});

test('a completion key is one per result id (ids are UUIDs), and tells decisions by their whole status', () => {
	const scope = ['wf1', 'node-1'];
	const image = completionKey(scope, 'moderation.completed', { id: 'r1', description: 'a cat' });
	// A slim delivery and a full one of a text result: the same completion.
	expect(completionKey(scope, 'moderation.completed', { id: 'r1', filteredContent: 'hi' })).toBe(image);
	expect(completionKey(scope, 'moderation.completed', { id: 'r1' })).toBe(image);
	expect(completionKey(scope, 'moderation.completed', { id: 'r2' })).not.toBe(image);
	expect(completionKey(['wf2', 'node-1'], 'moderation.completed', { id: 'r1' })).not.toBe(image);
	const decision = (status: unknown) => completionKey(scope, 'queue.review.completed', { id: 'q1', status, accepted: true } as never);
	expect(decision({ code: 'a' })).not.toBe(decision({ code: 'b' }));
	expect(decision('[object Object]')).not.toBe(decision({ code: 'a' }));
	expect(decision('true')).not.toBe(decision(true));
});

describe('completions in flight', () => {
	it('are never pushed out by others: a held claim stays held while 60,000 more are taken', () => {
		const { deliveries } = registry();
		const first = deliveries.claim('k0');
		for (let i = 1; i <= 60_000; i++) deliveries.claim(`k${i}`);
		expect(first.kind).toBe('held');
		expect(deliveries.claim('k0').kind).toBe('inFlight');
	});
});
