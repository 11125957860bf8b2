/**
 * The process's byte budget, taken in the service limiter's turns beside the places: one larger body
 * alone, small bodies never held back, a large body not starved by smaller ones, fair between runs. Under
 * random arrivals, answers and cancellations: limiter.properties.test.ts (a body larger than the budget
 * is not starved by small sends that keep overlapping is one of its checks).
 */
import { ByteBudget, MAX_BODY_BYTES_IN_FLIGHT, SMALL_BODY_BYTES } from '@package/nodes/ContentModeration/limiter/bytes';
import { ServiceLimiter, type LimiterShare, type Permit } from '@package/nodes/ContentModeration/limiter/limiter';
import { AbortedWait } from '@package/nodes/ContentModeration/limiter/waiters';
import { DEFAULT_RETRY_SETTINGS } from '@package/nodes/ContentModeration/retry/policy';
import { FakeClock } from '@test/helpers/fakeClock';

const MB = 1024 * 1024;
const ok = { kind: 'success', latencyMs: 200 } as const;

/** A limiter out of slow start (one timeout: 10 places, no rounds) on `budget`. */
async function limiterWith(budget: ByteBudget, clock = new FakeClock()) {
	const service = new ServiceLimiter(clock, { maxPauseMs: DEFAULT_RETRY_SETTINGS.maxDelayMs }, budget);
	(await service.openShare({ adaptive: true, cap: 1 }).acquire()).release({ kind: 'overloaded' });
	await clock.advance(1);
	const admitted: string[] = [];
	const permits = new Map<string, Permit>();
	const send = (share: LimiterShare, label: string, bytes: number) =>
		share.acquire(bytes).then((permit) => {
			admitted.push(label);
			permits.set(label, permit);
		});
	const end = async (label: string) => {
		permits.get(label)!.release(ok);
		await clock.advance(1);
	};
	return { service, clock, admitted, send, end, share: () => service.openShare({ adaptive: true, cap: 1000 }) };
}

describe('ByteBudget', () => {
	it('holds bytes within the budget; one larger body goes alone; small bodies always fit', () => {
		const budget = new ByteBudget(1000 * 1000);
		expect(budget.fits(5 * MB)).toBe(true);
		const huge = budget.take(5 * MB);
		expect(budget.fits(SMALL_BODY_BYTES)).toBe(false);
		expect(budget.fits(SMALL_BODY_BYTES - 1)).toBe(true);
		let woken = 0;
		budget.whenFreed(() => woken++);
		huge();
		huge();
		expect([budget.bytesInFlight, woken]).toEqual([0, 1]);
	});
});

describe('ByteBudget: the edges', () => {
	it('a body that exactly fills the budget beside the others fits; one byte more does not', () => {
		const budget = new ByteBudget(2 * MB);
		budget.take(MB);
		expect(budget.fits(MB)).toBe(true);
		expect(budget.fits(MB + 1)).toBe(false);
	});

	it('small bodies held do not keep a large body out; a body of exactly SMALL_BODY_BYTES is large', () => {
		const budget = new ByteBudget(MB);
		const small = budget.take(SMALL_BODY_BYTES - 1);
		expect(budget.fits(MB)).toBe(true);
		small();
		budget.take(SMALL_BODY_BYTES);
		expect(budget.fits(MB)).toBe(false);
	});

	it('tells a waiter once: a later release does not call it again', () => {
		const budget = new ByteBudget(MB);
		const first = budget.take(MB);
		const second = budget.take(MB);
		let woken = 0;
		budget.whenFreed(() => woken++);
		first();
		second();
		expect(woken).toBe(1);
	});
});

describe('bytes in the limiter\'s turns', () => {
	it('a send waits for its bytes as for its place; a cancelled one leaves; bytes come back with the release', async () => {
		const { send, share, admitted, end, clock } = await limiterWith(new ByteBudget(3.2 * MB));
		const bulk = share();
		for (const label of ['a', 'b', 'c']) void send(bulk, label, 1.4 * MB);
		const controller = new AbortController();
		const cancelled = new ServiceLimiter(clock, { maxPauseMs: 30_000 }).openShare({ adaptive: true, cap: 10 }, controller.signal);
		await clock.advance(1);
		expect(admitted).toEqual(['a', 'b']);
		await end('a');
		expect(admitted).toEqual(['a', 'b', 'c']);
		controller.abort();
		await expect(cancelled.acquire(MB)).rejects.toBeInstanceOf(AbortedWait);
	});

	it('a one-image run beside a bulk run that fills the budget is admitted at once, as a URL is', async () => {
		const { send, share, admitted, clock } = await limiterWith(new ByteBudget(8 * MB));
		const bulk = share();
		for (let i = 0; i < 20; i++) void send(bulk, `bulk${i}`, 1.3 * MB);
		await clock.advance(1);
		const bulkInFlight = admitted.length;
		void send(share(), 'image', 1.3 * MB);
		void send(share(), 'url', 100);
		await clock.advance(1);
		expect(admitted.slice(bulkInFlight)).toEqual(['image', 'url']);
		// Places are free (10): the bytes hold the bulk run back, and it left an eighth of them.
		expect(bulkInFlight).toBe(5);
	});

	it('a send held back by the reserve is woken when another service frees bytes', async () => {
		const budget = new ByteBudget(8 * MB);
		const other = await limiterWith(budget);
		void other.send(other.share(), 'other', 1.3 * MB);
		const { send, share, admitted, clock } = await limiterWith(budget, other.clock);
		const bulk = share();
		for (let i = 0; i < 5; i++) void send(bulk, `bulk${i}`, 1.3 * MB);
		await clock.advance(1);
		expect(admitted).toEqual(['bulk0', 'bulk1', 'bulk2', 'bulk3']);
		await other.end('other');
		expect(admitted).toContain('bulk4');
	});

	it('a body larger than the room the reserve keeps waits behind at most one send of the bulk run', async () => {
		const { send, share, admitted, end, clock } = await limiterWith(new ByteBudget(4 * MB));
		const bulk = share();
		for (let i = 0; i < 20; i++) void send(bulk, `bulk${i}`, 1.3 * MB);
		await clock.advance(1);
		expect(admitted).toEqual(['bulk0', 'bulk1']);
		void send(share(), 'image', 2 * MB);
		await end('bulk0');
		await end('bulk1');
		// Turns: the bulk run waited first, then the newcomer.
		expect(admitted.slice(2)).toEqual(['bulk2', 'image']);
	});

	it('a large body keeps its turn for the bytes: smaller ones after it do not take them; a URL is never held back', async () => {
		const { send, share, admitted, end, clock } = await limiterWith(new ByteBudget(10 * MB));
		const small = share();
		for (let i = 0; i < 4; i++) void send(small, `s${i}`, 2 * MB);
		await clock.advance(1);
		void send(share(), 'large', 7.9 * MB);
		void send(share(), 'url', 100);
		// The small run's next sends come after the large body in turn.
		for (let i = 4; i < 9; i++) void send(small, `s${i}`, 2 * MB);
		await clock.advance(1);
		expect(admitted.slice(4)).toEqual(['url']);
		// s4 would fit beside the others, but the bytes that come free are the large body's.
		for (const label of ['s0', 's1']) await end(label);
		expect(admitted.slice(5)).toEqual([]);
		await end('s2');
		expect(admitted.slice(5)).toEqual(['large']);
	});

	it('a body of exactly SMALL_BODY_BYTES waits for its bytes; one byte less never does', async () => {
		const { send, share, admitted, end, clock } = await limiterWith(new ByteBudget(MB));
		void send(share(), 'large', MB);
		await clock.advance(1);
		void send(share(), 'edge', SMALL_BODY_BYTES);
		void send(share(), 'small', SMALL_BODY_BYTES - 1);
		await clock.advance(1);
		expect(admitted).toEqual(['large', 'small']);
		await end('large');
		expect(admitted).toEqual(['large', 'small', 'edge']);
	});

	it('a large body waiting for bytes keeps them from a newcomer that would fit; cancelled, it gives them up at once', async () => {
		const { send, share, admitted, clock, service } = await limiterWith(new ByteBudget(10 * MB));
		const bulk = share();
		for (let i = 0; i < 4; i++) void send(bulk, `bulk${i}`, 2 * MB);
		await clock.advance(1);
		const controller = new AbortController();
		const large = service.openShare({ adaptive: true, cap: 1000 }, controller.signal).acquire(7.9 * MB);
		await clock.advance(1);
		// 1 MB fits beside the 8 MB in flight (and a run with none leaves no reserve), but the turn is the large body's.
		void send(share(), 'newcomer', MB);
		await clock.advance(1);
		expect(admitted).toHaveLength(4);
		controller.abort();
		await expect(large).rejects.toBeInstanceOf(AbortedWait);
		await clock.advance(1);
		expect(admitted.slice(4)).toEqual(['newcomer']);
	});

	it('a large body held back by the reserve keeps it from the smaller bodies of another run in flight', async () => {
		const { send, share, admitted, end, clock } = await limiterWith(new ByteBudget(16 * MB));
		const a = share();
		const b = share();
		void send(a, 'A0', 3 * MB);
		await clock.advance(1);
		for (let i = 0; i < 8; i++) void send(b, `B${i}`, 2 * MB);
		await clock.advance(1);
		void send(a, 'A1', 4 * MB);
		for (let i = 8; i < 60; i++) void send(b, `B${i}`, 2 * MB);
		await clock.advance(1);
		const ended = new Set<string>();
		while (!admitted.includes('A1') && ended.size < 40) {
			const next = admitted.find((label) => label.startsWith('B') && !ended.has(label));
			if (next === undefined) break;
			ended.add(next);
			await end(next);
		}
		// After B's first sends only (the rule before the reserve admitted it after B6).
		expect(admitted.slice(0, admitted.indexOf('A1') + 1)).toEqual(['A0', 'B0', 'B1', 'B2', 'B3', 'B4', 'B5', 'A1']);
	});

	describe('Fixed Concurrency', () => {
		// Max Image Size's default: a binary image's body is its base64.
		const maxImage = 20 * MB;
		const body = Math.ceil(maxImage / 3) * 4;
		const N = 5;

		it('a Fixed run sends its N bodies at once, the budget full or not; an adaptive large body waits for their bytes', async () => {
			const budget = new ByteBudget();
			const { send, share, admitted, end, clock, service } = await limiterWith(budget);
			const fixed = service.openShare({ adaptive: false, cap: N });
			for (let i = 0; i < N; i++) void send(fixed, `fixed${i}`, body);
			await clock.advance(1);
			expect(admitted).toEqual(['fixed0', 'fixed1', 'fixed2', 'fixed3', 'fixed4']);
			expect(budget.bytesInFlight).toBe(N * body);
			void send(share(), 'adaptive', body);
			await end('fixed0');
			await end('fixed1');
			await end('fixed2');
			// 2 bodies of 26.7 MB left: a third beside them would pass the 64 MB budget.
			expect(admitted).not.toContain('adaptive');
			await end('fixed3');
			expect(admitted).toContain('adaptive');
		});

		it(`the worst case: the budget full of adaptive bodies, then a Fixed run of ${N}: budget + N bodies at Max Image Size`, async () => {
			const budget = new ByteBudget();
			const { send, share, admitted, clock, service } = await limiterWith(budget);
			const bulk = share();
			for (let i = 0; i < 10; i++) void send(bulk, `bulk${i}`, body);
			await clock.advance(1);
			const adaptiveBytes = budget.bytesInFlight;
			expect(adaptiveBytes).toBeLessThanOrEqual(MAX_BODY_BYTES_IN_FLIGHT);
			const fixed = service.openShare({ adaptive: false, cap: N });
			for (let i = 0; i < N; i++) void send(fixed, `fixed${i}`, body);
			await clock.advance(1);
			expect(admitted.filter((label) => label.startsWith('fixed'))).toHaveLength(N);
			// 2 adaptive bodies (53.3 MB) and 5 Fixed ones (133.3 MB): 186.7 MB, within 64 + 133.3 = 197.3 MB.
			expect(budget.bytesInFlight).toBe(adaptiveBytes + N * body);
			expect(budget.bytesInFlight).toBeLessThanOrEqual(MAX_BODY_BYTES_IN_FLIGHT + N * body);
			expect((budget.bytesInFlight / MB).toFixed(1)).toBe('186.7');
		});
	});
});
