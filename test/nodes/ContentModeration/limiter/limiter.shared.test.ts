/**
 * Several node runs on one service limiter: what they share (the limit, the Retry-After pause) and what
 * stays their own (cap, cancel), and the fairness promised between a large run and one-item executions
 * that arrive while it waits: runs take turns, one place each, first come first served within a run.
 */
import { ServiceLimiter, type Permit, type LimiterShare } from '@package/nodes/ContentModeration/limiter/limiter';
import { AbortedWait } from '@package/nodes/ContentModeration/limiter/waiters';
import { DEFAULT_RETRY_SETTINGS } from '@package/nodes/ContentModeration/retry/policy';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { newServiceLimiter } from '@test/helpers/limiterRun';

const ok = { kind: 'success', latencyMs: 200 } as const;

/** A limiter out of slow start at INITIAL_LIMIT / 2 = 10 (one timeout). */
async function steadyLimiter(clock: FakeClock): Promise<ServiceLimiter> {
	const service = newServiceLimiter(clock);
	const p = await service.openShare({ adaptive: true, cap: 1000 }).acquire();
	await clock.advance(1);
	p.release({ kind: 'overloaded' });
	await clock.advance(1);
	expect(service.limit).toBe(10);
	return service;
}

/** Sends of `share` as they are admitted, labelled, into `order`. */
function queue(share: LimiterShare, label: string, count: number, order: string[], permits: Permit[]): void {
	for (let i = 0; i < count; i++) {
		void share.acquire().then((p) => {
			order.push(label);
			permits.push(p);
		});
	}
}

describe('ServiceLimiter shared by runs', () => {
	it('one-item executions arriving while a 1000-item run waits take turns with it, not its queue', async () => {
		const clock = new FakeClock();
		const service = await steadyLimiter(clock);
		const big = service.openShare({ adaptive: true, cap: 1000 });
		const order: string[] = [];
		const permits: Permit[] = [];
		queue(big, 'big', 1000, order, permits);
		await clock.advance(1);
		expect(order).toHaveLength(10);
		// Three one-item executions arrive while 990 sends of the large run wait.
		for (const name of ['a', 'b', 'c']) queue(service.openShare({ adaptive: true, cap: 1000 }), name, 1, order, permits);
		order.length = 0;
		// Places free one by one.
		for (let i = 0; i < 8; i++) {
			permits.shift()!.release(ok);
			await clock.advance(1);
		}
		// Turns: the large run (waiting first), then each newcomer, then the large run again.
		expect(order).toEqual(['big', 'a', 'b', 'c', 'big', 'big', 'big', 'big']);
	});

	it('neither starves: with a newcomer for every other place, each is served at once and the large run gets the rest', async () => {
		const clock = new FakeClock();
		const service = await steadyLimiter(clock);
		const order: string[] = [];
		const permits: Permit[] = [];
		queue(service.openShare({ adaptive: true, cap: 1000 }), 'big', 1000, order, permits);
		await clock.advance(1);
		order.length = 0;
		const arrivedAt: number[] = [];
		for (let place = 0; place < 40; place++) {
			if (place % 2 === 0) {
				arrivedAt.push(order.length);
				queue(service.openShare({ adaptive: true, cap: 1000 }), `one${arrivedAt.length - 1}`, 1, order, permits);
			}
			permits.shift()!.release(ok);
			await clock.advance(1);
		}
		// (The limit grows by one per ten successes, so a few more than 40 places went.)
		expect(order.length).toBeGreaterThanOrEqual(40);
		expect(order.filter((label) => label === 'big').length).toBeGreaterThanOrEqual(20);
		// Each newcomer got one of the next two places after it arrived (under FIFO it would wait for 990).
		arrivedAt.forEach((at, i) => {
			const servedAt = order.indexOf(`one${i}`);
			expect(servedAt).toBeGreaterThanOrEqual(at);
			expect(servedAt - at).toBeLessThanOrEqual(1);
		});
	});

	it('the limit and the Retry-After pause are shared; each run keeps its cap', async () => {
		const clock = new FakeClock();
		const service = await steadyLimiter(clock);
		const a = service.openShare({ adaptive: true, cap: 4 });
		const b = service.openShare({ adaptive: true, cap: 1000 });
		const order: string[] = [];
		const permits: Permit[] = [];
		queue(a, 'a', 10, order, permits);
		queue(b, 'b', 20, order, permits);
		await clock.advance(1);
		// The shared limit is 10: a at its cap of 4, b the other 6.
		expect(order.filter((x) => x === 'a')).toHaveLength(4);
		expect(order.filter((x) => x === 'b')).toHaveLength(6);
		// A 429 of run a with Retry-After: 2 s pauses run b's sends too, though places free meanwhile.
		permits[0].release({ kind: 'throttled', retryAfterMs: 2000 });
		expect(service.snapshot().pausedUntil).toBe(clock.time + 2000);
		order.length = 0;
		for (const p of permits.slice(1)) p.release(ok);
		await clock.advance(1999);
		expect(order).toEqual([]);
		await clock.advance(1);
		expect(order.filter((x) => x === 'b').length).toBeGreaterThan(0);
	});

	it('a Retry-After longer than an item may wait pauses the other runs only that long', async () => {
		const clock = new FakeClock();
		const service = await steadyLimiter(clock);
		const first = await service.openShare({ adaptive: true, cap: 1000 }).acquire();
		first.release({ kind: 'throttled', retryAfterMs: 3_600_000 });
		const order: string[] = [];
		queue(service.openShare({ adaptive: true, cap: 1000 }), 'other', 1, order, []);
		await clock.advance(DEFAULT_RETRY_SETTINGS.maxDelayMs - 1);
		expect(order).toEqual([]);
		await clock.advance(1);
		expect(order).toEqual(['other']);
	});

	it('a cancelled run\'s waiters leave; its places come back as its sends end, and the other run gets them', async () => {
		const clock = new FakeClock();
		const service = await steadyLimiter(clock);
		const controller = new AbortController();
		const cancelled = service.openShare({ adaptive: true, cap: 1000 }, controller.signal);
		const other = service.openShare({ adaptive: true, cap: 1000 });
		const order: string[] = [];
		const permits: Permit[] = [];
		const waits = Array.from({ length: 15 }, () => cancelled.acquire());
		await clock.advance(1);
		queue(other, 'other', 10, order, permits);
		await flush();
		expect(service.snapshot()).toMatchObject({ inFlight: 10, waiting: 15 });
		controller.abort();
		await Promise.allSettled(waits);
		for (const wait of waits.slice(10)) await expect(wait).rejects.toBeInstanceOf(AbortedWait);
		await clock.advance(1);
		// Its 10 sends are still in flight: the shared limit stays taken until they end.
		expect(order).toHaveLength(0);
		for (const wait of waits.slice(0, 10)) (await wait).release({ kind: 'neutral' });
		await clock.advance(1);
		expect(order).toHaveLength(10);
		expect(service.snapshot()).toMatchObject({ inFlight: 10, waiting: 0 });
	});

	it('a Fixed run keeps its exact number beside adaptive runs, outside the shared limit', async () => {
		const clock = new FakeClock();
		const service = await steadyLimiter(clock);
		const order: string[] = [];
		const permits: Permit[] = [];
		queue(service.openShare({ adaptive: true, cap: 1000 }), 'adaptive', 50, order, permits);
		queue(service.openShare({ adaptive: false, cap: 5 }), 'fixed', 50, order, permits);
		await clock.advance(1);
		expect(order.filter((x) => x === 'adaptive')).toHaveLength(10);
		expect(order.filter((x) => x === 'fixed')).toHaveLength(5);
	});
});
