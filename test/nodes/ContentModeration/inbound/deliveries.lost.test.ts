/**
 * A delivery handed to n8n counts as started only once n8n says it started the execution: a start n8n
 * did not make frees the completion for the sender's next delivery instead of losing it, and a
 * delivery of it meanwhile waits for n8n's outcome. On a fake clock.
 */
import { DeliveryRegistry } from '@package/nodes/ContentModeration/inbound/deliveries';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { storesOn } from '@test/helpers/stores';

const OUTCOME_WAIT_MS = 30_000;

function registry() {
	const clock = new FakeClock();
	return { clock, deliveries: new DeliveryRegistry(storesOn(clock, { startedCompletions: { ttlMs: 60_000, maxEntries: 100 } }), OUTCOME_WAIT_MS) };
}

function deferred() {
	let settle: (started: boolean) => void = () => {};
	let fail: (error: Error) => void = () => {};
	const promise = new Promise<boolean>((resolve, reject) => {
		settle = resolve;
		fail = reject;
	});
	return { promise, settle, fail };
}

function held(deliveries: DeliveryRegistry, key: string) {
	const claim = deliveries.claim(key);
	if (claim.kind !== 'held') throw new Error(`expected to hold ${key}, got ${claim.kind}`);
	return claim;
}

test('handed to n8n: in flight until n8n answers; started, it is a duplicate from then on', async () => {
	const { deliveries } = registry();
	const n8n = deferred();
	const claim = held(deliveries, 'k');
	claim.commitWhen(n8n.promise);
	// The handler's `finally` releases; the outcome is n8n's now.
	claim.release();
	expect(deliveries.claim('k').kind).toBe('inFlight');

	const retry = deliveries.claimWhenFree('k');
	n8n.settle(true);
	await expect(retry).resolves.toEqual({ kind: 'duplicate' });
	expect(deliveries.inFlight).toBe(0);
});

test('n8n did not start it (an error answer): the waiting retry holds it and can start it', async () => {
	const { deliveries } = registry();
	const n8n = deferred();
	held(deliveries, 'k').commitWhen(n8n.promise);

	const retry = deliveries.claimWhenFree('k');
	n8n.settle(false);
	const again = await retry;
	expect(again.kind).toBe('held');
	if (again.kind === 'held') again.commit();
	expect(deliveries.claim('k')).toEqual({ kind: 'duplicate' });
	expect(deliveries.size).toBe(1);
});

test('no answer from n8n in time: taken as started, never run twice', async () => {
	const { clock, deliveries } = registry();
	held(deliveries, 'k').commitWhen(new Promise<boolean>(() => {}));

	await clock.advance(OUTCOME_WAIT_MS - 1);
	expect(deliveries.claim('k').kind).toBe('inFlight');
	await clock.advance(1);
	expect(deliveries.claim('k')).toEqual({ kind: 'duplicate' });
	expect(deliveries.inFlight).toBe(0);
});

test('an outcome that fails to say is taken as started; commit and release after the hand-over change nothing', async () => {
	const { deliveries } = registry();
	const n8n = deferred();
	const claim = held(deliveries, 'k');
	claim.commitWhen(n8n.promise);
	claim.commit();
	expect(deliveries.claim('k').kind).toBe('inFlight');
	n8n.fail(new Error('the response object broke'));
	await flush();
	expect(deliveries.claim('k')).toEqual({ kind: 'duplicate' });

	// A claim already released is not handed over.
	const released = held(deliveries, 'r');
	released.release();
	released.commitWhen(Promise.resolve(true));
	await flush();
	expect(deliveries.claim('r').kind).toBe('held');
});
