/**
 * The adaptive limit after a sample whose refusals sit on top of the load (a full service), on a fake clock:
 * slow start ends at what the sample served, and the limit is held one above it for HOLD_MS.
 */
import { AdaptiveLimit, INITIAL_LIMIT } from '@package/nodes/ContentModeration/limiter/adaptiveLimit';
import { HOLD_MS } from '@package/nodes/ContentModeration/limiter/refusals';
import { fill, LATENCY, ok, refused } from '@test/helpers/adaptiveLimitSends';
import { FakeClock } from '@test/helpers/fakeClock';


describe('AdaptiveLimit: a full sample', () => {
	it('a sample whose refusals sit on top of the load ends slow start at what it served, and holds there', () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(1000);
		const sent = fill(limit, clock.now());
		// The two highest loads refused at once, the 18 below them served.
		clock.time += 5;
		for (const s of sent.slice(-2)) limit.answered(s, refused, clock.now());
		clock.time += LATENCY;
		for (const s of sent.slice(0, -2)) limit.answered(s, ok, clock.now());
		expect(limit.limit).toBe(INITIAL_LIMIT - 2);
		// Out of slow start (+1 per limit's worth), and for HOLD_MS at most one above that level. (The
		// refused sends' places are held for the 1 s round trip assumed before any success was timed.)
		clock.time = sent[0].at + 1000;
		const round = () => {
			const out = fill(limit, clock.now());
			clock.time += LATENCY;
			for (const s of out) limit.answered(s, ok, clock.now());
		};
		round();
		round();
		expect(limit.limit).toBe(INITIAL_LIMIT - 1);
		clock.time += HOLD_MS;
		round();
		expect(limit.limit).toBe(INITIAL_LIMIT);
	});
});
