/**
 * The per-run limiter, driven by a fake clock: growth (slow start, then additive), backoff (429/503,
 * timeouts, latency), the shared Retry-After pause, the cap, the hold after a throttle, the byte budget,
 * Fixed mode and cancel.
 */
import {
	AbortedWait,
	HOLD_MS,
	INITIAL_LIMIT,
	RequestLimiter,
	type LimiterClock,
	type LimiterSettings,
	type Permit,
} from '../../../../nodes/ContentModeration/transport/limiter';

class FakeClock implements LimiterClock {
	time = 1_000_000;
	private timers: Array<{ at: number; resolve: () => void }> = [];
	now = () => this.time;
	sleep = (ms: number) => new Promise<void>((resolve) => this.timers.push({ at: this.time + ms, resolve }));
	/** Moves time on, firing due timers, and lets the promises they settle run. */
	async advance(ms: number): Promise<void> {
		this.time += ms;
		const due = this.timers.filter((t) => t.at <= this.time);
		this.timers = this.timers.filter((t) => t.at > this.time);
		for (const t of due) t.resolve();
		await flush();
	}
}

const flush = async () => {
	for (let i = 0; i < 10; i++) await Promise.resolve();
};

const adaptive = (maxLimit = 100, maxBytesInFlight = 1000): LimiterSettings => ({ adaptive: true, maxLimit, maxBytesInFlight });

/** Takes every permit available now (without waiting). */
async function takeAll(limiter: RequestLimiter): Promise<Permit[]> {
	const permits: Permit[] = [];
	while (limiter.snapshot().inFlight < limiter.limit) permits.push(await limiter.acquire());
	return permits;
}

const ok = (latencyMs = 200) => ({ kind: 'success' as const, latencyMs });

describe('RequestLimiter (adaptive)', () => {
	it('starts at INITIAL_LIMIT and doubles per round trip while the limit is in use (slow start)', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(), clock);
		expect(limiter.limit).toBe(INITIAL_LIMIT);
		let permits = await takeAll(limiter);
		expect(permits).toHaveLength(INITIAL_LIMIT);
		for (let round = 1; round <= 3; round++) {
			await clock.advance(200);
			for (const p of permits) p.release(ok());
			expect(limiter.limit).toBe(INITIAL_LIMIT * 2 ** round);
			permits = await takeAll(limiter);
		}
	});

	it('does not grow while the limit is not in use', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(), clock);
		for (let i = 0; i < 50; i++) {
			const p = await limiter.acquire();
			await clock.advance(200);
			p.release(ok());
		}
		expect(limiter.limit).toBe(INITIAL_LIMIT);
	});

	it('never passes the cap', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(25), clock);
		for (let round = 0; round < 6; round++) {
			const permits = await takeAll(limiter);
			expect(permits.length).toBeLessThanOrEqual(25);
			await clock.advance(200);
			for (const p of permits) p.release(ok());
		}
		expect(limiter.limit).toBe(25);
		const permits = await takeAll(limiter);
		let extra = false;
		void limiter.acquire().then(() => (extra = true));
		await flush();
		expect(extra).toBe(false);
		expect(permits).toHaveLength(25);
	});

	it('a cap below INITIAL_LIMIT is the start', () => {
		expect(new RequestLimiter(adaptive(3), new FakeClock()).limit).toBe(3);
	});

	it('halves on a timeout, once per round trip', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(), clock);
		const permits = await takeAll(limiter);
		await clock.advance(100);
		permits[0].release({ kind: 'overloaded' });
		expect(limiter.limit).toBe(5);
		// The other sends were started before that decrease: their timeouts are the same event.
		for (const p of permits.slice(1, 5)) p.release({ kind: 'overloaded' });
		for (const p of permits.slice(5)) p.release({ kind: 'neutral' });
		expect(limiter.limit).toBe(5);
		await clock.advance(100);
		const later = await limiter.acquire();
		await clock.advance(100);
		later.release({ kind: 'overloaded' });
		expect(limiter.limit).toBe(2);
	});

	it('after slow start ends, grows by one per round trip (additive)', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(), clock);
		(await limiter.acquire()).release({ kind: 'overloaded' });
		expect(limiter.limit).toBe(5);
		for (let round = 1; round <= 3; round++) {
			const permits = await takeAll(limiter);
			await clock.advance(200);
			for (const p of permits) p.release(ok());
			expect(limiter.limit).toBe(5 + round);
		}
	});

	it('backs off gently on a clear latency rise', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(), clock);
		let permits = await takeAll(limiter);
		for (const p of permits) p.release(ok(100));
		expect(limiter.limit).toBe(20);
		permits = await takeAll(limiter);
		await clock.advance(1000);
		// Latency 100 -> 1000 ms: the smoothed latency passes twice the baseline after a few answers.
		for (const p of permits) p.release(ok(1000));
		expect(limiter.limit).toBe(18);
	});

	it('a 429 with Retry-After pauses every new send until then; sends in flight finish', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(), clock);
		const permits = await takeAll(limiter);
		permits[0].release({ kind: 'throttled', retryAfterMs: 1000 });
		expect(limiter.snapshot().pausedUntil).toBe(clock.time + 1000);

		const started: number[] = [];
		for (let i = 0; i < 3; i++) void limiter.acquire().then(() => started.push(clock.time));
		// Room under the limit, but paused: nothing starts, while in-flight sends still finish.
		for (const p of permits.slice(1)) p.release(ok());
		await clock.advance(999);
		expect(started).toEqual([]);
		expect(limiter.snapshot().inFlight).toBe(0);
		await clock.advance(1);
		expect(started).toHaveLength(3);
		expect(new Set(started)).toEqual(new Set([clock.time]));
	});

	it("a 429 lowers the limit to what the service sustained (success rate x baseline latency) and holds it", async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(), clock);
		const roundTrip = async () => {
			const taken = await takeAll(limiter);
			await clock.advance(200);
			for (const p of taken) p.release(ok(200));
			return taken.length;
		};
		// Leave slow start (limit 5), then 5 round trips of 200 ms: 5 + 6 + 7 + 8 + 9 = 35 successes in 1 s.
		const first = await limiter.acquire();
		first.release({ kind: 'overloaded' });
		let successes = 0;
		for (let i = 0; i < 5; i++) successes += await roundTrip();
		expect(successes).toBe(35);
		expect(limiter.limit).toBe(10);

		const permits = await takeAll(limiter);
		permits[0].release({ kind: 'throttled', retryAfterMs: 0 });
		// 35 per second x 0.2 s = 7 in flight is what the service sustained.
		expect(limiter.limit).toBe(7);
		for (const p of permits.slice(1)) p.release({ kind: 'throttled', retryAfterMs: 0 });
		expect(limiter.limit).toBe(7);

		// Healthy answers do not raise it above that during the hold...
		for (let i = 0; i < 10; i++) await roundTrip();
		expect(limiter.limit).toBe(7);
		// ...and after it, it probes higher by one per round trip.
		await clock.advance(HOLD_MS);
		await roundTrip();
		await roundTrip();
		expect(limiter.limit).toBe(9);
	});

	it('a 429 with nothing accepted at least halves the limit', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(), clock);
		const permits = await takeAll(limiter);
		permits[0].release({ kind: 'throttled' });
		expect(limiter.limit).toBe(5);
		expect(limiter.snapshot().pausedUntil).toBe(0);
	});

	it('holds body bytes within the budget, in order; one larger body goes alone', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(100, 1000), clock);
		const releaseA = await limiter.reserveBytes(600);
		const order: string[] = [];
		const b = limiter.reserveBytes(600).then((release) => (order.push('b'), release));
		const c = limiter.reserveBytes(100).then((release) => (order.push('c'), release));
		await flush();
		// c would fit, but does not overtake b.
		expect(order).toEqual([]);
		expect(limiter.snapshot().bytesInFlight).toBe(600);
		releaseA();
		await flush();
		expect(order).toEqual(['b', 'c']);
		(await b)();
		(await c)();
		expect(limiter.snapshot().bytesInFlight).toBe(0);
		const huge = await limiter.reserveBytes(5000);
		expect(limiter.snapshot().bytesInFlight).toBe(5000);
		huge();
		huge();
		expect(limiter.snapshot().bytesInFlight).toBe(0);
	});

	it('cancel stops a waiting send', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter(adaptive(1), clock);
		await limiter.acquire();
		const controller = new AbortController();
		const waiting = limiter.acquire(controller.signal);
		controller.abort();
		await expect(waiting).rejects.toBeInstanceOf(AbortedWait);
		await expect(limiter.acquire(controller.signal)).rejects.toBeInstanceOf(AbortedWait);
	});
});

describe('RequestLimiter (fixed)', () => {
	it('keeps exactly its number: no growth, no backoff, no shared pause, no byte budget', async () => {
		const clock = new FakeClock();
		const limiter = new RequestLimiter({ adaptive: false, maxLimit: 5, maxBytesInFlight: 10 }, clock);
		const permits = await takeAll(limiter);
		expect(permits).toHaveLength(5);
		permits[0].release({ kind: 'throttled', retryAfterMs: 5000 });
		permits[1].release({ kind: 'overloaded' });
		permits[2].release(ok());
		expect(limiter.limit).toBe(5);
		expect(limiter.snapshot().pausedUntil).toBe(0);
		expect(await takeAll(limiter)).toHaveLength(3);
		await limiter.reserveBytes(1000);
		await limiter.reserveBytes(1000);
		expect(limiter.snapshot().bytesInFlight).toBe(0);
	});
});
