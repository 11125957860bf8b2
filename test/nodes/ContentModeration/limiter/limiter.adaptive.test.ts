/**
 * How the shared limit grows and falls, driven through a service limiter on a fake clock: slow start,
 * additive growth, backoff on 429/503, timeouts and latency, and the hold after a refusal.
 */
import { INITIAL_LIMIT, SLOW_START_STEP } from '@package/nodes/ContentModeration/limiter/adaptiveLimit';
import { HOLD_MS } from '@package/nodes/ContentModeration/limiter/refusals';
import { FakeClock } from '@test/helpers/fakeClock';
import { adaptive, leaveSlowStart, ok, oneRun, roundTrip, takeAll } from '@test/helpers/limiterRun';

describe('ServiceLimiter (adaptive): the limit', () => {
	it(`starts at INITIAL_LIMIT and grows x${1 + SLOW_START_STEP} per round trip while the limit is in use (slow start)`, async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		expect(limiter.limit).toBe(INITIAL_LIMIT);
		for (let round = 1; round <= 2; round++) {
			await roundTrip(limiter, clock);
			expect(limiter.limit).toBe(INITIAL_LIMIT * (1 + SLOW_START_STEP) ** round);
		}
	});

	it('does not grow while the limit is not in use', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		for (let i = 0; i < 50; i++) {
			const p = await limiter.acquire();
			await clock.advance(200);
			p.release(ok());
		}
		expect(limiter.limit).toBe(INITIAL_LIMIT);
	});

	it('halves on a timeout, once per round trip', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		const permits = await takeAll(limiter);
		await clock.advance(100);
		permits[0].release({ kind: 'overloaded' });
		expect(limiter.limit).toBe(INITIAL_LIMIT / 2);
		// The other sends went out before that decrease: their timeouts are the same event.
		for (const p of permits.slice(1, 5)) p.release({ kind: 'overloaded' });
		for (const p of permits.slice(5)) p.release({ kind: 'neutral' });
		expect(limiter.limit).toBe(INITIAL_LIMIT / 2);
		await clock.advance(100);
		const later = await limiter.acquire();
		await clock.advance(100);
		later.release({ kind: 'overloaded' });
		expect(limiter.limit).toBe(INITIAL_LIMIT / 4);
	});

	it('after slow start ends, grows by one per round trip (additive)', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		await leaveSlowStart(limiter, clock);
		const start = limiter.limit;
		for (let round = 1; round <= 3; round++) {
			await roundTrip(limiter, clock);
			expect(limiter.limit).toBe(start + round);
		}
	});

	it('backs off gently on a clear latency rise, judged by the fastest answer of a window', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		await leaveSlowStart(limiter, clock);
		await roundTrip(limiter, clock, ok(100));
		const before = limiter.limit;
		// One slow answer in a window is no rise (this process may just have handled it late)...
		const permits = await takeAll(limiter);
		permits[0].release(ok(5000));
		for (const p of permits.slice(1)) p.release(ok(100));
		expect(limiter.limit).toBeGreaterThanOrEqual(before);
		// ...a whole window slower than twice the baseline is: one gentle decrease (x0.9), not a collapse.
		const level = limiter.limit;
		await roundTrip(limiter, clock, ok(1000), 1000);
		await roundTrip(limiter, clock, ok(1000), 1000);
		expect(limiter.limit).toBeLessThan(level);
		expect(limiter.limit).toBeGreaterThanOrEqual(Math.floor(level * 0.9));
	});

	it('leaving slow start on a 429 with Retry-After goes back to the level before the last growth of the limit its refused request went out under', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		const permits = await takeAll(limiter);
		// Answers of the same batch grow the limit before the 429 is read.
		for (const p of permits.slice(0, 10)) p.release(ok());
		expect(limiter.limit).toBe(INITIAL_LIMIT + 10 * SLOW_START_STEP);
		permits[10].release({ kind: 'throttled', retryAfterMs: 1 });
		expect(limiter.limit).toBe(Math.floor(INITIAL_LIMIT / (1 + SLOW_START_STEP)));
		expect(limiter.snapshot().pausedUntil).toBe(clock.time + 1);
	});

	it('a first 429 with Retry-After after slow start lowers the limit to what the service accepted in the last round trip', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		await leaveSlowStart(limiter, clock);
		await roundTrip(limiter, clock, ok(200));
		const permits = await takeAll(limiter);
		await clock.advance(200);
		// In the last 200 ms the service accepted 7 and refused the rest.
		for (const p of permits.slice(0, 7)) p.release(ok(200));
		permits[7].release({ kind: 'throttled', retryAfterMs: 1 });
		expect(limiter.limit).toBe(7);
		for (const p of permits.slice(8)) p.release({ kind: 'throttled', retryAfterMs: 1 });
		expect(limiter.limit).toBe(7);
	});

	it('after a 429 with Retry-After the limit holds at most one above its new level for HOLD_MS, then probes; each refusal doubles the hold', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		await leaveSlowStart(limiter, clock);
		for (let i = 0; i < 5; i++) await roundTrip(limiter, clock);
		/** One refused send among successes; returns the level the refusal set. */
		const refusal = async () => {
			const permits = await takeAll(limiter);
			await clock.advance(200);
			permits[0].release({ kind: 'throttled', retryAfterMs: 1 });
			const level = limiter.limit;
			for (const p of permits.slice(1)) p.release(ok(200));
			await clock.advance(1);
			return level;
		};
		const level = await refusal();
		for (let i = 0; i < 20; i++) await roundTrip(limiter, clock);
		expect(limiter.limit).toBe(level + 1);
		// After the hold it probes higher, one per round trip.
		await clock.advance(HOLD_MS);
		await roundTrip(limiter, clock);
		await roundTrip(limiter, clock);
		expect(limiter.limit).toBe(level + 3);

		// Refused again: the next hold is twice as long.
		const again = await refusal();
		for (let i = 0; i < 10; i++) await roundTrip(limiter, clock);
		expect(limiter.limit).toBe(again + 1);
		await clock.advance(HOLD_MS);
		for (let i = 0; i < 3; i++) await roundTrip(limiter, clock);
		expect(limiter.limit).toBe(again + 1);
		await clock.advance(HOLD_MS);
		await roundTrip(limiter, clock);
		expect(limiter.limit).toBe(again + 2);
	});

	it('429s to sends that went out before the decrease are the same refusal: they do not lengthen the hold', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		await leaveSlowStart(limiter, clock);
		for (let i = 0; i < 5; i++) await roundTrip(limiter, clock);
		const permits = await takeAll(limiter);
		await clock.advance(200);
		for (const p of permits.slice(0, 3)) p.release({ kind: 'throttled', retryAfterMs: 1 });
		const level = limiter.limit;
		// The successes of that round trip take it to the most the hold allows.
		for (const p of permits.slice(3)) p.release(ok(200));
		expect(limiter.limit).toBe(level + 1);
		// One hold of HOLD_MS, then one more per round trip.
		await clock.advance(HOLD_MS);
		await roundTrip(limiter, clock);
		await roundTrip(limiter, clock);
		expect(limiter.limit).toBe(level + 3);
	});

	it('a 429 with Retry-After and nothing accepted in the last round trip halves the limit', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		await leaveSlowStart(limiter, clock);
		const permits = await takeAll(limiter);
		await clock.advance(500);
		permits[0].release({ kind: 'throttled', retryAfterMs: 1 });
		expect(limiter.limit).toBe(INITIAL_LIMIT / 4);
	});
});
