/** The delivery registry (inbound/deliveries.ts): its keys' parts, its default bounds, and claims ended out of order. On a fake clock. */
import type { BoundedMap } from '@package/nodes/ContentModeration/helpers/boundedMap';
import type { StoreName } from '@package/nodes/ContentModeration/helpers/processState';
import {
	CLAIM_WAIT_MS,
	completionKey,
	deliveryKey,
	DeliveryRegistry,
	OUTCOME_WAIT_MS,
	type Taken,
} from '@package/nodes/ContentModeration/inbound/deliveries';
import { RESULT_EVENT, REVIEW_EVENT } from '@package/nodes/ContentModeration/inbound/envelope';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { storesOn } from '@test/helpers/stores';

/** A registry with the default bounds on a fake clock, and its stores (to clear one as a process reset does). */
function registry() {
	const clock = new FakeClock();
	const maps = new Map<StoreName, BoundedMap<string, unknown>>();
	const stores = <V>(name: StoreName) => {
		const map = storesOn(clock)<V>(name);
		maps.set(name, map as BoundedMap<string, unknown>);
		return map;
	};
	return { clock, maps, deliveries: new DeliveryRegistry(stores) };
}

function held(deliveries: DeliveryRegistry, key: string) {
	const claim = deliveries.claim(key);
	if (claim.kind !== 'held') throw new Error(`expected to hold ${key}, got ${claim.kind}`);
	return claim;
}

test("a completion's key: scope, event and id, then a decision's status and acceptance", () => {
	const scope = ['wf1', 'node-1'];
	expect(completionKey(scope, RESULT_EVENT, { id: 'r1', content: 'hi' })).toBe(
		deliveryKey(['wf1', 'node-1', RESULT_EVENT, 'r1']),
	);
	expect(completionKey(scope, RESULT_EVENT, { id: 'r1' })).toBe(deliveryKey(['wf1', 'node-1', RESULT_EVENT, 'r1']));
	expect(
		completionKey(scope, REVIEW_EVENT, {
			id: 'q1',
			status: 'accepted',
			accepted: true,
			content: 'hi',
		}),
	).toBe(deliveryKey(['wf1', 'node-1', REVIEW_EVENT, 'q1', 'accepted', true]));
	expect(
		completionKey(scope, REVIEW_EVENT, {
			id: 'q1',
			status: 'rejected',
			accepted: false,
		}),
	).toBe(deliveryKey(['wf1', 'node-1', REVIEW_EVENT, 'q1', 'rejected', false]));
	expect(completionKey(scope, REVIEW_EVENT, { id: 'q1' })).toBe(
		deliveryKey(['wf1', 'node-1', REVIEW_EVENT, 'q1', null, null]),
	);
	expect(
		completionKey(scope, 'queue.item.deleted', {
			id: 'q1',
			status: 'gone',
			content: 'hi',
		}),
	).toBe(deliveryKey(['wf1', 'node-1', 'queue.item.deleted', 'q1']));
	// SHA-256 of the parts as JSON text, `["a"]`, in base64.
	expect(deliveryKey(['a'])).toBe('DrW41vgbxnfaighWfMT6mgalfp7I2oXtc6f2JyeZYAI=');
});

test('released, then committed: still free, the commit after the release counts for nothing', () => {
	const { deliveries } = registry();
	const claim = held(deliveries, 'k');
	claim.release();
	claim.commit();
	expect(deliveries.claim('k').kind).toBe('held');
	expect(deliveries.size).toBe(0);
});

test('by default n8n is waited for OUTCOME_WAIT_MS (2 min), and a second hand-over does not move that on', async () => {
	const { clock, deliveries } = registry();
	expect(OUTCOME_WAIT_MS).toBe(120_000);
	const claim = held(deliveries, 'k');
	claim.commitWhen(new Promise<boolean>(() => {}));
	await clock.advance(60_000);
	let settle: (started: boolean) => void = () => {};
	claim.commitWhen(new Promise<boolean>((resolve) => (settle = resolve)));
	settle(false);
	await flush();
	await clock.advance(OUTCOME_WAIT_MS - 60_001);
	expect(deliveries.claim('k').kind).toBe('inFlight');
	await clock.advance(1);
	expect(deliveries.claim('k')).toEqual({ kind: 'duplicate' });
});

test('a wait for a claim held elsewhere ends by default after CLAIM_WAIT_MS (30 s): busy', async () => {
	const { clock, deliveries } = registry();
	expect(CLAIM_WAIT_MS).toBe(30_000);
	held(deliveries, 'k');
	let taken: Taken | undefined;
	void deliveries.claimWhenFree('k').then((answer) => (taken = answer));
	await clock.advance(CLAIM_WAIT_MS - 1);
	expect(taken).toBeUndefined();
	await clock.advance(1);
	expect(taken).toEqual({ kind: 'busy' });
});

test('a wait looks again every 250 ms: a cancel is seen within that, an expired hand-over too', async () => {
	const { clock, deliveries } = registry();
	held(deliveries, 'k').commitWhen(new Promise<boolean>(() => {}));
	// The waiter starts 100 ms later: it looks at 100 + 250 n ms, the hand-over expires at OUTCOME_WAIT_MS.
	await clock.advance(100);
	let taken: Taken | undefined;
	void deliveries.claimWhenFree('k', 10 * OUTCOME_WAIT_MS).then((answer) => (taken = answer));
	for (let slices = 0; slices < OUTCOME_WAIT_MS / 250 - 1; slices++) await clock.advance(250);
	await clock.advance(249);
	expect(taken).toBeUndefined();
	await clock.advance(1);
	expect(taken).toEqual({ kind: 'duplicate' });

	held(deliveries, 'c');
	const cancel = new AbortController();
	let cancelled: Taken | undefined;
	void deliveries.claimWhenFree('c', CLAIM_WAIT_MS, cancel.signal).then((answer) => (cancelled = answer));
	await clock.advance(100);
	cancel.abort();
	await clock.advance(149);
	expect(cancelled).toBeUndefined();
	await clock.advance(1);
	expect(cancelled).toEqual({ kind: 'busy' });
});

test('an execution already cancelled, or no time to wait: busy at once; a free key is still held', async () => {
	const { deliveries } = registry();
	held(deliveries, 'k');
	const cancel = new AbortController();
	cancel.abort();
	await expect(deliveries.claimWhenFree('k', CLAIM_WAIT_MS, cancel.signal)).resolves.toEqual({ kind: 'busy' });
	await expect(deliveries.claimWhenFree('k', 0)).resolves.toEqual({
		kind: 'busy',
	});
	expect((await deliveries.claimWhenFree('free', 0, cancel.signal)).kind).toBe('held');
});

test('a claim from before the in-flight store was cleared ends without touching the one taken since', () => {
	const { maps, deliveries } = registry();
	const before = held(deliveries, 'k');
	maps.get('completionsInFlight')?.clear();
	const since = held(deliveries, 'k');
	before.release();
	expect(deliveries.claim('k').kind).toBe('inFlight');
	since.commit();
	expect(deliveries.claim('k').kind).toBe('duplicate');
});
