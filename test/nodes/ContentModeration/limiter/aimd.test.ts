/**
 * The adaptive limit's estimate of what the service sustains after a refusal, given times directly
 * (the limiter's tests drive the rest through a fake clock).
 */
import { RATE_WINDOW_MS } from '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/accepted';
import { AimdLimit, SLOW_START_STEP } from '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/aimd';

const LATENCY = 200;

/** A limit that grew to 90 in slow start and left it on a refusal at t = 1000: back to 30. */
function afterFirstRefusal(): AimdLimit {
	const aimd = new AimdLimit(1000);
	aimd.sent(30);
	for (let i = 0; aimd.limit < 90; i++) {
		aimd.answered({ kind: 'success', latencyMs: LATENCY }, { at: 0, limit: aimd.limit, load: 1 }, LATENCY + i, 30);
	}
	aimd.answered({ kind: 'throttled', retryAfterMs: 1000 }, { at: 800, limit: 90, load: 1 }, 1000, 0);
	expect(aimd.limit).toBe(90 / (1 + SLOW_START_STEP));
	return aimd;
}

/** `count` successes spread evenly over [from, to). */
function successes(aimd: AimdLimit, count: number, from: number, to: number): void {
	for (let i = 0; i < count; i++) {
		const now = from + ((to - from) * i) / count;
		aimd.answered({ kind: 'success', latencyMs: LATENCY }, { at: now - LATENCY, limit: aimd.limit, load: 1 }, now, aimd.limit);
	}
}

describe('AimdLimit: the level after a refusal', () => {
	it('is the rate accepted since the first refusal times the latency, not the burst of the last round trip', () => {
		const aimd = afterFirstRefusal();
		// A Retry-After pause of 1 s with nothing accepted, then a token bucket lets 30 through in one
		// round trip: 30 since the refusal 1.2 s ago is 25/s, x 200 ms = 5 in flight.
		successes(aimd, 30, 2000, 2200);
		aimd.answered({ kind: 'throttled', retryAfterMs: 1000 }, { at: 2050, limit: 30, load: 1 }, 2200, 0);
		expect(aimd.limit).toBe(5);
	});

	it(`counts at most the last ${RATE_WINDOW_MS / 1000} s`, () => {
		const aimd = afterFirstRefusal();
		// 50/s for 4 s, then 100/s for 5 s: the window sees only the last 5 s, 100/s x 200 ms = 20.
		successes(aimd, 200, 1000, 5000);
		successes(aimd, 500, 5010, 10_010);
		aimd.answered({ kind: 'throttled', retryAfterMs: 1000 }, { at: 9900, limit: 30, load: 1 }, 10_000, 0);
		expect(aimd.limit).toBe(20);
	});

	it('never rises on a refusal: at most 0.9 of the limit it had', () => {
		const aimd = afterFirstRefusal();
		successes(aimd, 500, 1000, 2000);
		aimd.answered({ kind: 'throttled', retryAfterMs: 1 }, { at: 1900, limit: 30, load: 1 }, 2000, 0);
		expect(aimd.limit).toBe(0.9 * 30);
	});
});
