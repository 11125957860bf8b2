/** RunClaims (inbound/runClaims.ts): turns that end without passing on, items done twice or unknown, keys that are none. On a fake clock. */
import { DeliveryRegistry, type Taken } from '@package/nodes/ContentModeration/inbound/deliveries';
import { RunClaims } from '@package/nodes/ContentModeration/inbound/runClaims';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { storesOn } from '@test/helpers/stores';

function setup() {
	const clock = new FakeClock();
	const registry = new DeliveryRegistry(storesOn(clock, { startedCompletions: { ttlMs: 60_000, maxEntries: 100 } }));
	return {
		clock,
		registry,
		run: (waitMs?: number) => new RunClaims(registry, undefined, waitMs),
	};
}

test('items without a key take nothing; each key is taken once', async () => {
	const { registry, run } = setup();
	await run().takeAll(['a', undefined, 'a', undefined]);
	expect(registry.inFlight).toBe(1);
	expect(registry.claim('undefined').kind).toBe('held');
});

test('a repeat ends its turn at once: the next item with the key gets its own turn', async () => {
	const { run } = setup();
	const first = run();
	await first.turn('k', 0);
	first.itemDone(0, true);
	first.commit();
	const claims = run();
	expect(await claims.turn('k', 0)).toBe('repeat');
	expect(await claims.turn('k', 1)).toBe('repeat');
});

test('a busy turn ends at once too: the next item with the key is busy without a second wait', async () => {
	const { clock, registry, run } = setup();
	registry.claim('k');
	const claims = run(1_000);
	const first = claims.turn('k', 0);
	await flush();
	await clock.advance(1_000);
	expect(await first).toBe('busy');
	expect(await claims.turn('k', 1)).toBe('busy');
});

test('an item done twice counts as it was first done; an unknown item changes nothing', async () => {
	const { run } = setup();
	const claims = run();
	expect(await claims.turn('k', 0)).toBe('pass');
	claims.itemDone(0, false);
	claims.itemDone(0, true);
	expect(() => claims.itemDone(7, true)).not.toThrow();
	claims.commit();
	expect(await run().turn('k', 0)).toBe('pass');
});

test('a run ended twice: the first end counts', async () => {
	const { registry, run } = setup();
	const claims = run();
	await claims.turn('k', 0);
	claims.itemDone(0, true);
	claims.commit();
	claims.release();
	expect(registry.claim('k')).toEqual({ kind: 'duplicate' });
});

test('a run ended twice (the router commits, then releases) ends each claim once, as its first end says', async () => {
	const { registry } = setup();
	const ends: string[] = [];
	// The registry's claims record their ends: the run must not rely on a claim ignoring a second one.
	const recording = {
		clock: registry.clock,
		claimWhenFree: async (key: string, timeoutMs: number, signal?: AbortSignal): Promise<Taken> => {
			const taken = await registry.claimWhenFree(key, timeoutMs, signal);
			if (taken.kind !== 'held') return taken;
			return {
				...taken,
				commit: () => ends.push(`commit ${key}`),
				release: () => ends.push(`release ${key}`),
			};
		},
	} as unknown as DeliveryRegistry;
	const claims = new RunClaims(recording);
	expect([await claims.turn('k', 0), await claims.turn('m', 1)]).toEqual(['pass', 'pass']);
	claims.itemDone(0, true);
	claims.itemDone(1, false);
	claims.commit();
	claims.release();
	expect(ends).toEqual(['commit k', 'release m']);
});
