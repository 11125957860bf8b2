/**
 * The adaptive limit through its surface (may a send start, when, sent, answered), on a fake clock:
 * places in flight, a refused send's place held for a round trip, slow start's batches, and the level
 * after a refusal. How the limit grows and falls under load is limiter.adaptive.test.ts.
 */
import { RATE_WINDOW_MS } from '@package/nodes/ContentModeration/limiter/successes';
import {
	AdaptiveLimit,
	INITIAL_LIMIT,
	SLOW_START_STEP,
} from '@package/nodes/ContentModeration/limiter/adaptiveLimit';
import { BATCH_GRACE } from '@package/nodes/ContentModeration/limiter/batches';
import { HOLD_MS } from '@package/nodes/ContentModeration/limiter/refusals';
import { fill, LATENCY, ok, refused } from '@test/helpers/adaptiveLimitSends';
import { FakeClock } from '@test/helpers/fakeClock';


/** Leaves slow start with one timeout: the limit is then INITIAL_LIMIT / 2. */
function leaveSlowStart(limit: AdaptiveLimit, clock: FakeClock): void {
	const sent = limit.sent(clock.now());
	clock.time += 1;
	limit.answered(sent, { kind: 'overloaded' }, clock.now());
	expect(limit.limit).toBe(INITIAL_LIMIT / 2);
}

describe('AdaptiveLimit: places', () => {
	it('lets INITIAL_LIMIT sends start, then none until an answer; an answer frees a place', () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(1000);
		const sent = fill(limit, clock.now());
		expect(sent).toHaveLength(INITIAL_LIMIT);
		expect(limit.places.inFlight).toBe(INITIAL_LIMIT);
		// Only an answer makes room.
		expect(limit.startsAt(clock.now())).toBeUndefined();
		expect(sent.map((s) => s.load)).toEqual(Array.from({ length: INITIAL_LIMIT }, (_, i) => i + 1));
		clock.time += LATENCY;
		for (const s of sent) limit.answered(s, ok, clock.now());
		expect(limit.places.inFlight).toBe(0);
		expect(limit.places.taken(clock.now())).toBe(0);
		expect(limit.mayStart(clock.now())).toBe(true);
	});

	it('keeps a refused send\'s place (a 503 without Retry-After answered at once) until a round trip after it went out', () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(1000);
		leaveSlowStart(limit, clock);
		// One success times the round trip.
		const timed = limit.sent(clock.now());
		clock.time += LATENCY;
		limit.answered(timed, ok, clock.now());
		const sent = fill(limit, clock.now());
		const wentOutAt = clock.now();
		clock.time += 5;
		limit.answered(sent[0], refused, clock.now());
		expect(limit.places.inFlight).toBe(sent.length - 1);
		// The place is still taken: no send may start, and by time alone one may at wentOutAt + LATENCY.
		expect(limit.mayStart(clock.now())).toBe(false);
		expect(limit.startsAt(clock.now())).toBe(wentOutAt + LATENCY);
		expect(limit.places.taken(clock.now())).toBe(sent.length);
		clock.time = wentOutAt + LATENCY - 1;
		expect(limit.mayStart(clock.now())).toBe(false);
		clock.time += 1;
		expect(limit.mayStart(clock.now())).toBe(true);
	});

	it('a success or a refusal with Retry-After frees its place at once', () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(1000);
		leaveSlowStart(limit, clock);
		const sent = fill(limit, clock.now());
		clock.time += 5;
		limit.answered(sent[0], { kind: 'throttled', retryAfterMs: 1000 }, clock.now());
		// (The limiter keeps the pause; the place itself is free.)
		expect(limit.places.inFlight + 1).toBeLessThanOrEqual(limit.limit);
		expect(limit.startsAt(clock.now())).toBe(clock.now());
	});
});

describe('AdaptiveLimit: slow start\'s batches', () => {
	it(`once a batch's first answer is in, the next batch waits for the rest, or ${BATCH_GRACE} x that answer's latency`, () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(1000);
		const sent = fill(limit, clock.now());
		clock.time += LATENCY;
		limit.answered(sent[0], ok, clock.now());
		const graceEnds = clock.now() + LATENCY * BATCH_GRACE;
		// Room under the grown limit, but the batch is closing.
		expect(limit.places.inFlight).toBeLessThan(limit.limit);
		expect(limit.mayStart(clock.now())).toBe(false);
		expect(limit.startsAt(clock.now())).toBe(graceEnds);
		clock.time = graceEnds - 1;
		expect(limit.mayStart(clock.now())).toBe(false);
		clock.time = graceEnds;
		expect(limit.mayStart(clock.now())).toBe(true);
	});

	it('a batch whose answers are all in gives way at once', () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(1000);
		const sent = fill(limit, clock.now());
		clock.time += LATENCY;
		for (const s of sent) limit.answered(s, ok, clock.now());
		expect(limit.limit).toBe(INITIAL_LIMIT * (1 + SLOW_START_STEP));
		expect(fill(limit, clock.now())).toHaveLength(INITIAL_LIMIT * (1 + SLOW_START_STEP));
	});

	it('after slow start, answers free places one by one (no batches)', () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(1000);
		leaveSlowStart(limit, clock);
		const sent = fill(limit, clock.now());
		clock.time += LATENCY;
		limit.answered(sent[0], ok, clock.now());
		expect(limit.mayStart(clock.now())).toBe(true);
	});
});

/** A limit that grew to 90 in slow start (30 in flight) and left it on a refusal at t = 1000: back to 30. */
function afterFirstRefusal(): AdaptiveLimit {
	const limit = new AdaptiveLimit(1000);
	const out = Array.from({ length: 30 }, () => limit.sent(0));
	for (let i = 0; limit.limit < 90; i++) {
		limit.answered(out.shift()!, ok, LATENCY + i);
		out.push(limit.sent(LATENCY + i));
	}
	for (const sent of out) limit.answered(sent, { kind: 'neutral' }, 800);
	limit.answered(limit.sent(800), { kind: 'throttled', retryAfterMs: 1000 }, 1000);
	expect(limit.limit).toBe(90 / (1 + SLOW_START_STEP));
	return limit;
}

/** `count` successes spread evenly over [from, to), each sent a latency before its answer. */
function successes(limit: AdaptiveLimit, count: number, from: number, to: number): void {
	for (let i = 0; i < count; i++) {
		const now = from + ((to - from) * i) / count;
		limit.answered(limit.sent(now - LATENCY), ok, now);
	}
}

/** A 429 with Retry-After answered at `now` to a send that went out at `at`. */
const throttled = (limit: AdaptiveLimit, at: number, now: number, retryAfterMs = 1000) =>
	limit.answered(limit.sent(at), { kind: 'throttled', retryAfterMs }, now);

describe('AdaptiveLimit: the level after a refusal', () => {
	it('is the rate accepted since the first refusal times the latency, not the burst of the last round trip', () => {
		const limit = afterFirstRefusal();
		// A Retry-After pause of 1 s with nothing accepted, then a token bucket lets 30 through in one
		// round trip: 30 since the refusal 1.2 s ago is 25/s, x 200 ms = 5 in flight.
		successes(limit, 30, 2000, 2200);
		throttled(limit, 2050, 2200);
		expect(limit.limit).toBe(5);
	});

	it(`counts at most the last ${RATE_WINDOW_MS / 1000} s`, () => {
		const limit = afterFirstRefusal();
		// 50/s for 4 s, then 100/s for 5 s: the window sees only the last 5 s, 100/s x 200 ms = 20.
		successes(limit, 200, 1000, 5000);
		successes(limit, 500, 5010, 10_010);
		throttled(limit, 9900, 10_000);
		expect(limit.limit).toBe(20);
	});

	it('the first refusal after slow start with one success in the round trip before it: the level is 1, not half', () => {
		const limit = new AdaptiveLimit(1000);
		limit.answered(limit.sent(0), { kind: 'overloaded' }, 1);
		expect(limit.limit).toBe(INITIAL_LIMIT / 2);
		successes(limit, 1, 5000, 5001);
		throttled(limit, 4900, 5100);
		expect(limit.limit).toBe(1);
	});

	it('from one round trip after the first refusal on, it is the rate accepted since then times the smoothed latency', () => {
		const limit = new AdaptiveLimit(1000);
		limit.answered(limit.sent(0), { kind: 'overloaded' }, 1);
		// The round trip is the fastest success (LATENCY); the smoothed latency is far above it (920 ms).
		limit.answered(limit.sent(100), { kind: 'success', latencyMs: 1000 }, 1100);
		successes(limit, 1, 2100, 2101);
		// Nothing accepted in the round trip before the first refusal: half.
		throttled(limit, 9000, 10_000);
		expect(limit.limit).toBe(INITIAL_LIMIT / 4);
		successes(limit, 2, 10_050, 10_150);
		throttled(limit, 10_001, 10_000 + LATENCY);
		// 2 in 200 ms x 783 ms = 7.8, at most 0.9 x 5: 4 (the 2 successes of the last round trip would say 2).
		expect(limit.limit).toBe(4);
	});

	it('never rises on a refusal: at most 0.9 of the limit it had', () => {
		const limit = afterFirstRefusal();
		successes(limit, 500, 1000, 2000);
		throttled(limit, 1900, 2000, 1);
		expect(limit.limit).toBe(0.9 * 30);
	});
});

/** `count` successes of `latencyMs`, one send in flight at a time (the limit not in use: no growth). */
function oneByOne(limit: AdaptiveLimit, clock: FakeClock, count: number, latencyMs: number): void {
	for (let i = 0; i < count; i++) {
		const sent = limit.sent(clock.now());
		clock.time += latencyMs;
		limit.answered(sent, { kind: 'success', latencyMs }, clock.now());
	}
}

describe('AdaptiveLimit: latency windows', () => {
	it('a cap below INITIAL_LIMIT is also the size of the first latency window', () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(4);
		oneByOne(limit, clock, 4, 100);
		// The second window of 4 is far slower: a rise, judged when it ends.
		oneByOne(limit, clock, 4, 1000);
		expect(limit.limit).toBe(3);
	});

	it('a decrease starts a new latency window of the new limit\'s size', () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(1000);
		leaveSlowStart(limit, clock);
		oneByOne(limit, clock, INITIAL_LIMIT / 2, 100);
		oneByOne(limit, clock, INITIAL_LIMIT / 2, 1000);
		expect(limit.limit).toBe(Math.floor((INITIAL_LIMIT / 2) * 0.9));
	});
});

describe('AdaptiveLimit: growth', () => {
	it('a third of the limit in flight at once (1 + SLOW_START_STEP) is use enough to grow', () => {
		const clock = new FakeClock();
		// Out of slow start at 3.
		const limit = new AdaptiveLimit(6);
		const first = limit.sent(clock.now());
		clock.time += 1;
		limit.answered(first, { kind: 'overloaded' }, clock.now());
		expect(limit.limit).toBe(3);
		// One send at a time: a limit's worth of successes adds one.
		oneByOne(limit, clock, 3, LATENCY);
		expect(limit.limit).toBe(4);
	});

	/** Slow start with 20 in flight; the two lowest loads refused at once: the sample looks full, growth waits. */
	function heldGrowth() {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(1000);
		const sent = fill(limit, clock.now());
		clock.time += 5;
		for (const s of sent.slice(0, 2)) limit.answered(s, { kind: 'throttled' }, clock.now());
		clock.time += LATENCY;
		return { clock, limit, rest: sent.slice(2) };
	}

	it('in slow start, growth held back while the sample looked full comes back whole when it ends', () => {
		const { clock, limit, rest } = heldGrowth();
		for (const s of rest.slice(0, -1)) limit.answered(s, ok, clock.now());
		expect(limit.limit).toBe(INITIAL_LIMIT);
		// The sample's last answer: its refusals were not on top of the load, so the growth of the 17 successes
		// before it comes back, and it adds its own.
		limit.answered(rest[rest.length - 1], ok, clock.now());
		expect(limit.limit).toBe(INITIAL_LIMIT + 18 * SLOW_START_STEP);
	});

	it('growth held back in slow start is dropped when slow start ends before it comes back', () => {
		const { clock, limit, rest } = heldGrowth();
		for (const s of rest.slice(0, 3)) limit.answered(s, ok, clock.now());
		limit.answered(rest[3], { kind: 'overloaded' }, clock.now());
		expect(limit.limit).toBe(INITIAL_LIMIT / 2);
		for (const s of rest.slice(4)) limit.answered(s, ok, clock.now());
		// This answer ends the sample, not full: the held growth is not given after slow start. The +1 is
		// additive growth (a limit's worth of successes).
		limit.answered(limit.sent(clock.now()), ok, clock.now());
		expect(limit.limit).toBe(INITIAL_LIMIT / 2 + 1);
	});
});
