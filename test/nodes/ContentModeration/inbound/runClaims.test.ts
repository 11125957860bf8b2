/**
 * The claims of one node run (inbound/runClaims.ts), as the router commits or releases them: a completion
 * counts as passed on only when the run succeeds with it among the outputs; items of one run with the same
 * completion take it in turns. On a fake clock.
 */
import { DeliveryRegistry } from '@package/nodes/ContentModeration/inbound/deliveries';
import { RunClaims } from '@package/nodes/ContentModeration/inbound/runClaims';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { storesOn } from '@test/helpers/stores';

const registryOn = (clock: FakeClock) => new DeliveryRegistry(storesOn(clock, { startedCompletions: { ttlMs: 60_000, maxEntries: 100 } }));

function setup() {
	const registry = registryOn(new FakeClock());
	return { registry, run: () => new RunClaims(registry) };
}

test('passed on in a run that succeeds: a repeat in a later run', async () => {
	const { run } = setup();
	const first = run();
	expect(await first.turn('k', 0)).toBe('pass');
	first.itemDone(0, true);
	first.commit();
	expect(await run().turn('k', 0)).toBe('repeat');
});

test('a run that fails passes nothing on, its items passed on or not: the completion is free again', async () => {
	const { registry, run } = setup();
	const failed = run();
	expect(await failed.turn('x', 0)).toBe('pass');
	failed.itemDone(0, true);
	expect(await failed.turn('y', 1)).toBe('pass');
	failed.release();
	expect(registry.inFlight).toBe(0);
	const next = run();
	expect([await next.turn('x', 0), await next.turn('y', 1)]).toEqual(['pass', 'pass']);
});

test('a run that succeeds without the item (it failed, On Error: continue) frees the completion', async () => {
	const { run } = setup();
	const first = run();
	await first.turn('k', 0);
	first.itemDone(0, false);
	first.commit();
	expect(await run().turn('k', 0)).toBe('pass');
});

test('items of one run with one completion: the next waits for the first, a repeat if it passed on, else it takes over', async () => {
	const { run } = setup();
	const claims = run();
	expect(await claims.turn('k', 0)).toBe('pass');
	let second: string | undefined;
	void claims.turn('k', 1).then((repeat) => (second = repeat));
	await flush();
	expect(second).toBeUndefined();
	claims.itemDone(0, false);
	await flush();
	expect(second).toBe('pass');
	const third = claims.turn('k', 2);
	claims.itemDone(1, true);
	expect(await third).toBe('repeat');
	claims.commit();
	expect(await run().turn('k', 0)).toBe('repeat');
});

test('another run holding the completion: this one waits for its outcome', async () => {
	const { run } = setup();
	const holder = run();
	await holder.turn('k', 0);
	const waiting = run().turn('k', 0);
	holder.itemDone(0, true);
	holder.commit();
	expect(await waiting).toBe('repeat');
});

test('an item still waiting when its run ends holds nothing afterwards', async () => {
	const { registry, run } = setup();
	const claims = run();
	await claims.turn('k', 0);
	const late = claims.turn('k', 1);
	claims.release();
	await late;
	expect(registry.inFlight).toBe(0);
});

test('two runs taking the same completions in opposite order both get through: taken in one sorted order', async () => {
	const { run } = setup();
	const [a, b] = [run(), run()];
	const taking = [a.takeAll(['x', 'y']), b.takeAll(['y', 'x'])];
	await flush();
	// One run holds both; the other waits for the first key only, holding nothing.
	expect([await a.turn('x', 0), await a.turn('y', 1)]).toEqual(['pass', 'pass']);
	a.itemDone(0, true);
	a.itemDone(1, true);
	a.commit();
	await Promise.all(taking);
	expect([await b.turn('y', 0), await b.turn('x', 1)]).toEqual(['repeat', 'repeat']);
});

test('a wait for another execution ends at the bound: the item is busy, holds nothing, and the holder keeps it', async () => {
	const clock = new FakeClock();
	const registry = registryOn(clock);
	const holder = new RunClaims(registry, undefined, 30_000);
	await holder.takeAll(['k']);
	const waiter = new RunClaims(registry, undefined, 30_000);
	let turn: string | undefined;
	void waiter.takeAll(['k', 'm']).then(async () => (turn = await waiter.turn('k', 0)));
	await clock.advance(29_999);
	expect(turn).toBeUndefined();
	await clock.advance(1);
	await flush();
	expect(turn).toBe('busy');
	// Keys after the bound are not waited for, but a free one is still taken.
	expect(await waiter.turn('m', 1)).toBe('pass');
	waiter.release();
	expect(registry.inFlight).toBe(1);
});

test('a wait for another execution ends when this execution is cancelled', async () => {
	const clock = new FakeClock();
	const registry = registryOn(clock);
	await new RunClaims(registry).takeAll(['k']);
	const cancel = new AbortController();
	const waiter = new RunClaims(registry, cancel.signal);
	const taking = waiter.takeAll(['k']);
	await clock.advance(1_000);
	cancel.abort();
	await clock.advance(250);
	await taking;
	expect(await waiter.turn('k', 0)).toBe('busy');
	expect(clock.now() - 1_000_000).toBeLessThan(2_000);
});

test('a claim granted after its run failed is released at once: later deliveries of the completion do not wait', async () => {
	const { registry, run } = setup();
	const holder = run();
	await holder.takeAll(['k']);
	const failed = run();
	const taking = failed.takeAll(['k']);
	await flush();
	// The waiting run fails before the holder lets go.
	failed.release();
	holder.release();
	await taking;
	await flush();
	expect(registry.inFlight).toBe(0);
	expect(registry.claim('k').kind).toBe('held');
});

test('an item asking its turn after its run failed is not let through, and takes nothing', async () => {
	const { registry, run } = setup();
	const failed = run();
	failed.release();
	expect(await failed.turn('k', 0)).not.toBe('pass');
	expect(registry.inFlight).toBe(0);
});
