/**
 * The shared limiter against fault shapes, simulated on a fake clock with the bench's figures (600 items,
 * 200 ms per answer, refused items sent again with the node's retry policy and its default budget):
 *   - sporadic refusals (10% of answers 503, Retry-After: 0, at random): about as fast as no faults;
 *   - a full service (takes 50 at once, refuses the rest 503 at once, no Retry-After): the limit comes
 *     down to what it takes, every item is served, few refusals.
 * Answers are handled in arrival order one per HANDLE_MS, as n8n does.
 */
import { DEFAULT_RETRY_SETTINGS, decideRetry } from '@package/nodes/ContentModeration/retry/policy';
import { median } from '../../../bench/harness';
import { FakeClock } from '@test/helpers/fakeClock';
import { adaptive, oneRun } from '@test/helpers/limiterRun';

const ITEMS = 600;
const LATENCY_MS = 200;
const HANDLE_MS = 1;

/** A seeded PRNG (mulberry32), so a run is the same every time. */
function random(seed: number): () => number {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

interface Service {
	/** Whether the request is refused, and after how long it is answered. */
	answer(): { refused: boolean; afterMs: number };
	done(): void;
}

async function simulate(service: Service) {
	const clock = new FakeClock();
	const limiter = oneRun(adaptive(500), clock);
	const rand = random(7);
	const start = clock.now();
	// Answers are handled in arrival order, one per HANDLE_MS: the first free tick from its arrival.
	const taken = new Set<number>();
	const handledAt = (arrival: number) => {
		let at = arrival;
		while (taken.has(at)) at += HANDLE_MS;
		taken.add(at);
		return at;
	};
	let sent = 0;
	let refused = 0;
	let failed = 0;
	let settled = 0;
	const item = async () => {
		for (let retryIndex = 0; ; retryIndex++) {
			const permit = await limiter.acquire();
			sent++;
			const sentAt = clock.now();
			const answer = service.answer();
			await clock.sleep(handledAt(sentAt + answer.afterMs) - sentAt);
			if (!answer.refused) {
				service.done();
				permit.release({ kind: 'success', latencyMs: clock.now() - sentAt });
				return;
			}
			refused++;
			permit.release({ kind: 'throttled', retryAfterMs: 0 });
			const decision = decideRetry('POST', { kind: 'status', statusCode: 503, retryAfter: '0' }, retryIndex, DEFAULT_RETRY_SETTINGS, clock.now(), rand);
			if (!decision.retry) {
				failed++;
				return;
			}
			await clock.sleep(decision.delayMs);
		}
	};
	const all = Promise.all(Array.from({ length: ITEMS }, () => item().finally(() => settled++)));
	const trace: string[] = [];
	while (settled < ITEMS) {
		await clock.advance(1);
		if (process.env.TRACE && (clock.now() - start) % 50 === 0) trace.push(`${clock.now() - start}:${limiter.limit}/${limiter.snapshot().inFlight}/${refused}`);
	}
	if (process.env.TRACE) console.log(trace.join(' '));
	await all;
	return { seconds: (clock.now() - start) / 1000, sent, refused, failed };
}

const randomFaults = (share: number, seed = 42): Service => {
	const rand = random(seed);
	return { answer: () => ({ refused: rand() < share, afterMs: LATENCY_MS }), done: () => {} };
};

const fullService = (capacity: number): Service => {
	let working = 0;
	return {
		answer: () => (working < capacity ? (working++, { refused: false, afterMs: LATENCY_MS }) : { refused: true, afterMs: 1 }),
		done: () => working--,
	};
};

describe('the shared limiter against fault shapes (fake clock)', () => {
	it('10% of answers 503 at random: every item served; over 9 seeds the median within 1.5 x the fault-free time', async () => {
		const clean = await simulate(randomFaults(0));
		const ratios: number[] = [];
		for (let seed = Number(process.env.SEED ?? 1); seed <= Number(process.env.SEED ?? 9); seed++) {
			const faulty = await simulate(randomFaults(0.1, seed));
			expect(faulty.failed).toBe(0);
			expect(faulty.sent - faulty.refused).toBe(ITEMS);
			ratios.push(faulty.seconds / clean.seconds);
		}
		if (process.env.TRACE) console.log(ratios.map((r) => r.toFixed(2)).join(' '));
		// The slowest run is an item of the last wave refused three times in a row (0.1%), three round trips late.
		expect(median(ratios)).toBeLessThanOrEqual(1.5);
		expect(Math.max(...ratios)).toBeLessThanOrEqual(1.6);
	});

	it('a service that takes 50 at once and refuses the rest at once: 0 failed, <= 1.3 x N x latency / 50, <= 10% refused', async () => {
		const run = await simulate(fullService(50));
		expect(run.failed).toBe(0);
		expect(run.sent - run.refused).toBe(ITEMS);
		expect(run.refused / run.sent).toBeLessThanOrEqual(0.1);
		expect(run.seconds).toBeLessThanOrEqual((1.3 * ITEMS * LATENCY_MS) / 50 / 1000);
	});
});
