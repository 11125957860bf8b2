/**
 * The claims of one node run (RunClaims in inbound/deliveries.ts), as the router settles them: a completion
 * counts as passed on only when the run succeeds with it among the outputs; items of one run with the same
 * completion take it in turns. On a fake clock.
 */
import { DeliveryRegistry, RunClaims } from '@package/nodes/ContentModeration/inbound/deliveries';
import { FakeClock, flush } from '@test/helpers/fakeClock';

function setup() {
	const registry = new DeliveryRegistry(new FakeClock(), { rememberMs: 60_000, maxRemembered: 100 });
	return { registry, run: () => new RunClaims(registry) };
}

test('passed on in a run that succeeds: a repeat in a later run', async () => {
	const { run } = setup();
	const first = run();
	expect(await first.isRepeat('k', 0)).toBe(false);
	first.itemDone(0, true);
	first.commit();
	expect(await run().isRepeat('k', 0)).toBe(true);
});

test('a run that fails passes nothing on, its items passed on or not: the completion is free again', async () => {
	const { registry, run } = setup();
	const failed = run();
	expect(await failed.isRepeat('x', 0)).toBe(false);
	failed.itemDone(0, true);
	expect(await failed.isRepeat('y', 1)).toBe(false);
	failed.release();
	expect(registry.inFlight).toBe(0);
	const next = run();
	expect([await next.isRepeat('x', 0), await next.isRepeat('y', 1)]).toEqual([false, false]);
});

test('a run that succeeds without the item (it failed, On Error: continue) frees the completion', async () => {
	const { run } = setup();
	const first = run();
	await first.isRepeat('k', 0);
	first.itemDone(0, false);
	first.commit();
	expect(await run().isRepeat('k', 0)).toBe(false);
});

test('items of one run with one completion: the next waits for the first, a repeat if it passed on, else it takes over', async () => {
	const { run } = setup();
	const claims = run();
	expect(await claims.isRepeat('k', 0)).toBe(false);
	let second: boolean | undefined;
	void claims.isRepeat('k', 1).then((repeat) => (second = repeat));
	await flush();
	expect(second).toBeUndefined();
	claims.itemDone(0, false);
	await flush();
	expect(second).toBe(false);
	const third = claims.isRepeat('k', 2);
	claims.itemDone(1, true);
	expect(await third).toBe(true);
	claims.commit();
	expect(await run().isRepeat('k', 0)).toBe(true);
});

test('another run holding the completion: this one waits for its outcome', async () => {
	const { run } = setup();
	const holder = run();
	await holder.isRepeat('k', 0);
	const waiting = run().isRepeat('k', 0);
	holder.itemDone(0, true);
	holder.commit();
	expect(await waiting).toBe(true);
});

test('an item still waiting when its run ends holds nothing afterwards', async () => {
	const { registry, run } = setup();
	const claims = run();
	await claims.isRepeat('k', 0);
	const late = claims.isRepeat('k', 1);
	claims.release();
	await late;
	expect(registry.inFlight).toBe(0);
});
