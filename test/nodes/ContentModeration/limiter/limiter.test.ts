/**
 * The per-run limiter, driven by a fake clock: growth (slow start, then additive), backoff (429/503,
 * timeouts, latency), slow-start rounds, the shared Retry-After pause, the hold after a refusal, the cap, the byte
 * budget, Fixed mode and cancel.
 */
import { HOLD_MS, INITIAL_LIMIT, SLOW_START_STEP } from '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/adaptiveLimit';
import type { SendOutcome } from '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/outcome';
import { BATCH_GRACE } from '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/batches';
import { AbortedWait } from '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/waiters';
import { FakeClock, flush } from '../../../helpers/fakeClock';
import type { Permit } from '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/limiter';
import { adaptive, oneRun, type OneRun } from '../../../helpers/limiterRun';
const ok = (latencyMs = 200): SendOutcome => ({ kind: 'success', latencyMs });

/** Takes every permit available now (without waiting). */
async function takeAll(limiter: OneRun): Promise<Permit[]> {
	const permits: Permit[] = [];
	while (limiter.snapshot().inFlight < limiter.limit) permits.push(await limiter.acquire());
	return permits;
}

/** One round trip with the limit in full use: every permit answered with `outcome` after `ms`. */
async function roundTrip(limiter: OneRun, clock: FakeClock, outcome = ok(), ms = 200): Promise<number> {
	const permits = await takeAll(limiter);
	await clock.advance(ms);
	for (const p of permits) p.release(outcome);
	return permits.length;
}

/** Leaves slow start with one timeout: the limit is then INITIAL_LIMIT / 2. */
async function leaveSlowStart(limiter: OneRun, clock: FakeClock) {
	const p = await limiter.acquire();
	await clock.advance(1);
	p.release({ kind: 'overloaded' });
	await clock.advance(1);
}

describe('RequestLimiter (adaptive)', () => {
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

	it('never passes the cap', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(50), clock);
		for (let round = 0; round < 4; round++) expect(await roundTrip(limiter, clock)).toBeLessThanOrEqual(50);
		expect(limiter.limit).toBe(50);
		expect(await takeAll(limiter)).toHaveLength(50);
		let extra = false;
		void limiter.acquire().then(() => (extra = true));
		await clock.advance(10);
		expect(extra).toBe(false);
	});

	it('a cap below INITIAL_LIMIT is the start', () => {
		expect(oneRun(adaptive(3), new FakeClock()).limit).toBe(3);
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

	it('backs off gently on a clear latency rise, judged by the fastest answer of a round', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		await leaveSlowStart(limiter, clock);
		await roundTrip(limiter, clock, ok(100));
		const before = limiter.limit;
		// One slow answer in a round is no rise (this process may just have handled it late)...
		const permits = await takeAll(limiter);
		permits[0].release(ok(5000));
		for (const p of permits.slice(1)) p.release(ok(100));
		expect(limiter.limit).toBeGreaterThanOrEqual(before);
		// ...a whole round slower than twice the baseline is: one gentle decrease (x0.9), not a collapse.
		const level = limiter.limit;
		await roundTrip(limiter, clock, ok(1000), 1000);
		await roundTrip(limiter, clock, ok(1000), 1000);
		expect(limiter.limit).toBeLessThan(level);
		expect(limiter.limit).toBeGreaterThanOrEqual(Math.floor(level * 0.9));
	});

	it('a 429 with Retry-After pauses every new send until then; sends in flight finish', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
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

	it('answers that arrive together are all seen before waiting sends start (a 429 among successes stops them)', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		const permits = await takeAll(limiter);
		let started = 0;
		for (let i = 0; i < 10; i++) void limiter.acquire().then(() => started++);
		// Each answer is its own I/O callback: promise jobs run between them.
		for (const p of permits.slice(0, 15)) {
			p.release(ok());
			await flush();
		}
		permits[15].release({ kind: 'throttled', retryAfterMs: 1000 });
		await clock.advance(0);
		expect(started).toBe(0);
	});

	it('leaving slow start on a 429 with Retry-After goes back to the round before the limit its refused request went out under', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		const permits = await takeAll(limiter);
		// Answers of the same round grow the limit before the 429 is read.
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

	it('in slow start a round is read whole before the next goes out: a 429 answered last stops the sends its successes would release', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		const permits = await takeAll(limiter);
		let started = 0;
		for (let i = 0; i < 60; i++) void limiter.acquire().then(() => started++);
		await clock.advance(200);
		// The bucket ran dry at the end of the round: 15 successes first, each its own I/O turn...
		for (const p of permits.slice(0, 15)) {
			p.release(ok());
			await clock.advance(1);
		}
		expect(limiter.limit).toBe(INITIAL_LIMIT + 15 * SLOW_START_STEP);
		expect(started).toBe(0);
		// ...then the refusals.
		for (const p of permits.slice(15)) p.release({ kind: 'throttled', retryAfterMs: 1000 });
		await clock.advance(1);
		expect(started).toBe(0);
		expect(limiter.limit).toBe(Math.floor(INITIAL_LIMIT / (1 + SLOW_START_STEP)));
		await clock.advance(1000);
		expect(started).toBe(limiter.limit);
	});

	it(`in slow start a round waiting for a straggler opens ${BATCH_GRACE} x its first answer's latency after that answer`, async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		const permits = await takeAll(limiter);
		let started = 0;
		for (let i = 0; i < 100; i++) void limiter.acquire().then(() => started++);
		await clock.advance(200);
		for (const p of permits.slice(1)) p.release(ok(200));
		await clock.advance(200 * BATCH_GRACE - 1);
		expect(started).toBe(0);
		await clock.advance(1);
		// The next round: the grown limit less the straggler still out.
		expect(started).toBe(limiter.limit - 1);
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

	it('cancel stops a waiting send, and a cancelled run gives its places back at once', async () => {
		const clock = new FakeClock();
		const controller = new AbortController();
		const limiter = oneRun(adaptive(1), clock, controller.signal);
		await limiter.acquire();
		const waiting = limiter.acquire();
		expect(limiter.snapshot()).toMatchObject({ inFlight: 1, waiting: 1 });
		controller.abort();
		await expect(waiting).rejects.toBeInstanceOf(AbortedWait);
		expect(limiter.snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
		await expect(limiter.acquire()).rejects.toBeInstanceOf(AbortedWait);
	});
});

describe('RequestLimiter (fixed)', () => {
	it('keeps exactly its number: no growth, no backoff; it honours the shared Retry-After pause', async () => {
		const clock = new FakeClock();
		const limiter = oneRun({ adaptive: false, cap: 5 }, clock);
		const permits: Permit[] = [];
		for (let i = 0; i < 5; i++) permits.push(await limiter.acquire());
		let sixth = false;
		const sixthPermit = limiter.acquire().then((p) => ((sixth = true), p));
		await clock.advance(10);
		expect(sixth).toBe(false);
		permits[1].release({ kind: 'overloaded' });
		permits[2].release(ok());
		await clock.advance(1);
		expect(sixth).toBe(true);
		// Counted from what is admitted (limiter.limit is the cap itself for Fixed): after the timeout the
		// other freed place is taken (no backoff), after the success no sixth goes out (no growth).
		let admitted = 0;
		for (let i = 0; i < 2; i++) void limiter.acquire().then(() => admitted++);
		await clock.advance(10);
		expect(admitted).toBe(1);
		(await sixthPermit).release(ok());
		permits[0].release({ kind: 'throttled', retryAfterMs: 5000 });
		expect(limiter.snapshot().pausedUntil).toBe(clock.time + 5000);
		let started = false;
		void limiter.acquire().then(() => (started = true));
		await clock.advance(4999);
		expect(started).toBe(false);
		await clock.advance(1);
		expect(started).toBe(true);
	});
});
