/**
 * The limiter against a token bucket of 50 requests/s holding 50 (200 ms per answer, refusals included;
 * 429 + Retry-After 1 s; each refused item sent again after the pause), on a fake clock, so a change that
 * brings back floods of refusals fails here, not only in `npm run bench`. Answers are handled one per
 * HANDLE_MS, as n8n does, in the order they were sent: a batch's refusals last.
 */
import { FakeClock } from '@test/helpers/fakeClock';
import { adaptive, oneRun } from '@test/helpers/limiterRun';

const RATE = 50;
const LATENCY_MS = 200;
const RETRY_AFTER_MS = 1000;
const HANDLE_MS = 1;

async function simulate(items: number) {
	const clock = new FakeClock();
	const limiter = oneRun(adaptive(500), clock);
	const start = clock.now();
	let tokens = RATE;
	let tokensAt = start;
	const takeToken = () => {
		tokens = Math.min(RATE, tokens + ((clock.now() - tokensAt) * RATE) / 1000);
		tokensAt = clock.now();
		if (tokens < 1) return false;
		tokens -= 1;
		return true;
	};
	let handledAt = start;
	let sent = 0;
	let refused = 0;
	let done = 0;
	const item = async () => {
		for (;;) {
			const permit = await limiter.acquire();
			sent++;
			const accepted = takeToken();
			const sentAt = clock.now();
			handledAt = Math.max(sentAt + LATENCY_MS, handledAt + HANDLE_MS);
			await clock.sleep(handledAt - sentAt);
			if (accepted) {
				permit.release({ kind: 'success', latencyMs: clock.now() - sentAt });
				done++;
				return;
			}
			refused++;
			permit.release({ kind: 'throttled', retryAfterMs: RETRY_AFTER_MS });
			await clock.sleep(RETRY_AFTER_MS);
		}
	};
	const all = Promise.all(Array.from({ length: items }, item));
	while (done < items) await clock.advance(1);
	await all;
	return { seconds: (clock.now() - start) / 1000, sent, refused };
}

describe('RequestLimiter against a token bucket (fake clock)', () => {
	it('1000 items at 50/s: every item once, at most 5% of requests refused, within 1.15 x N/R', async () => {
		const { seconds, sent, refused } = await simulate(1000);
		expect(sent - refused).toBe(1000);
		expect(refused / sent).toBeLessThanOrEqual(0.05);
		expect(seconds).toBeLessThanOrEqual(1.15 * (1000 / RATE));
	});
});
