/**
 * The service limiter's admission, driven by a fake clock: the cap, the shared Retry-After pause, answers
 * seen together before waiting sends start, slow start's batches, cancel, and Fixed mode.
 */
import type { Clock } from '@package/nodes/ContentModeration/helpers/clock';
import { INITIAL_LIMIT, SLOW_START_STEP } from '@package/nodes/ContentModeration/limiter/adaptiveLimit';
import { BATCH_GRACE } from '@package/nodes/ContentModeration/limiter/batches';
import type { Permit } from '@package/nodes/ContentModeration/limiter/limiter';
import { AbortedWait } from '@package/nodes/ContentModeration/limiter/waiters';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { adaptive, leaveSlowStart, ok, oneRun, roundTrip, takeAll } from '@test/helpers/limiterRun';

describe('ServiceLimiter (adaptive): admission', () => {
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

	it('a wake-up that comes a millisecond early is set again: the send waiting out a pause starts when it ends', async () => {
		const clock = new FakeClock();
		// n8n's sleep is setTimeout, which may fire while Date.now() is a millisecond short (nodejs/node#33382).
		const early: Clock = { now: clock.now, sleep: (ms) => clock.sleep(ms > 1 ? ms - 1 : ms) };
		const limiter = oneRun(adaptive(), early);
		(await limiter.acquire()).release({ kind: 'throttled', retryAfterMs: 1000 });
		const { pausedUntil } = limiter.snapshot();
		let startedAt: number | undefined;
		void limiter.acquire().then(() => (startedAt = clock.now()));
		await clock.advance(999);
		expect(startedAt).toBeUndefined();
		await clock.advance(1);
		expect(startedAt).toBe(pausedUntil);
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

	it('in slow start a batch is read whole before the next goes out: a 429 answered last stops the sends its successes would release', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		const permits = await takeAll(limiter);
		let started = 0;
		for (let i = 0; i < 60; i++) void limiter.acquire().then(() => started++);
		await clock.advance(200);
		// The bucket ran dry at the end of the batch: 15 successes first, each its own I/O turn...
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

	it(`in slow start a batch waiting for a straggler opens ${BATCH_GRACE} x its first answer's latency after that answer`, async () => {
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
		// The next batch: the grown limit less the straggler still out.
		expect(started).toBe(limiter.limit - 1);
	});

	it('cancel stops a waiting send; a cancelled run keeps the place of a send in flight until it ends', async () => {
		const clock = new FakeClock();
		const controller = new AbortController();
		const limiter = oneRun(adaptive(1), clock, controller.signal);
		const inFlight = await limiter.acquire();
		const waiting = limiter.acquire();
		expect(limiter.snapshot()).toMatchObject({ inFlight: 1, waiting: 1 });
		controller.abort();
		await expect(waiting).rejects.toBeInstanceOf(AbortedWait);
		// The service still works on it until the aborted request has ended.
		expect(limiter.snapshot()).toMatchObject({ inFlight: 1, waiting: 0 });
		inFlight.release({ kind: 'neutral' });
		expect(limiter.snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
		const afterCancel = limiter.acquire();
		await expect(afterCancel).rejects.toBeInstanceOf(AbortedWait);
		await expect(afterCancel).rejects.toThrow('cancelled while waiting to send');
	});

	it('a send waiting for a refused send\'s place starts when that place comes free, without an answer', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		await leaveSlowStart(limiter, clock);
		const permits = await takeAll(limiter);
		const wentOutAt = clock.now();
		const started: number[] = [];
		for (let i = 0; i < 2; i++) void limiter.acquire().then(() => started.push(clock.now()));
		await clock.advance(5);
		// Answered together: a success (timing the round trip: 200 ms) frees its place; a 503 keeps its own
		// until a round trip after it went out.
		permits[1].release(ok(200));
		permits[0].release({ kind: 'throttled' });
		await clock.advance(1);
		expect(started).toEqual([clock.now()]);
		await clock.advance(wentOutAt + 200 - clock.now());
		expect(started).toHaveLength(2);
		expect(started[1]).toBe(wentOutAt + 200);
	});

	it('a send that waits out a Retry-After pause, then for refused sends\' places, starts when they come free', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		await leaveSlowStart(limiter, clock);
		const permits = await takeAll(limiter);
		const wentOutAt = clock.now();
		await clock.advance(5);
		// 503s without Retry-After keep their places for a round trip (1 s before any success was timed)...
		for (const p of permits.slice(1)) p.release({ kind: 'throttled' });
		// ...and a 429 pauses every send for 100 ms.
		permits[0].release({ kind: 'throttled', retryAfterMs: 100 });
		let startedAt: number | undefined;
		void limiter.acquire().then(() => (startedAt = clock.now()));
		await clock.advance(100);
		expect(startedAt).toBeUndefined();
		await clock.advance(wentOutAt + 1000 - clock.now());
		expect(startedAt).toBe(wentOutAt + 1000);
	});
});

describe('ServiceLimiter (fixed)', () => {
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

describe('ServiceLimiter: idleness (what lets the registry forget it)', () => {
	it("is not idle while a refused send's place is still held for a round trip", async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		const permit = await limiter.acquire();
		await clock.advance(5);
		permit.release({ kind: 'throttled' });
		expect(limiter.snapshot().inFlight).toBe(0);
		expect(limiter.service.isIdle(clock.now(), 0)).toBe(false);
		await clock.advance(1_000);
		expect(limiter.service.isIdle(clock.now(), 0)).toBe(true);
	});

	it("is not idle while a Fixed run's send is out, however long it takes; idle once it is answered", async () => {
		const clock = new FakeClock();
		const limiter = oneRun({ adaptive: false, cap: 1 }, clock);
		const permit = await limiter.acquire();
		// A send may take the whole request timeout (5 min), as long as the registry's idle time.
		await clock.advance(300_000);
		expect(limiter.service.isIdle(clock.now(), 300_000)).toBe(false);
		permit.release(ok());
		expect(limiter.service.isIdle(clock.now(), 0)).toBe(true);
	});

	it('is not idle while a send waits, though nothing is in flight (a Retry-After pause)', async () => {
		const clock = new FakeClock();
		const limiter = oneRun(adaptive(), clock);
		(await limiter.acquire()).release({ kind: 'throttled', retryAfterMs: 1000 });
		void limiter.acquire();
		await clock.advance(10);
		expect(limiter.snapshot()).toMatchObject({ inFlight: 0, waiting: 1 });
		expect(limiter.service.isIdle(clock.now(), 0)).toBe(false);
	});
});
