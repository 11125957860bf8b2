/** What one process remembers of its waiting runs (memory.ts), on a fake clock: bounded in runs and time. */
import { RESUMING_MS, RunMemory, runKey, WaitMemory, type Outcome } from '@package/nodes/ContentModeration/actions/waitForCallback/memory';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { storesOn } from '@test/helpers/stores';

const at = (clock: FakeClock, ms: number) => new Date(clock.time + ms).toISOString();

describe('WaitMemory', () => {
	it('keeps a run until its deadline, then knows nothing of it', async () => {
		const clock = new FakeClock();
		const memory = new WaitMemory(storesOn(clock, { waitingRuns: { maxEntries: 10 } }));
		const deadline = at(clock, 60_000);
		memory.watch('run', deadline);
		memory.run('run', deadline).remember(0, 'a', { id: 'a', isSafe: true });
		await clock.advance(59_999);
		expect(memory.run('run', deadline).result(0, 'a')).toEqual({ id: 'a', isSafe: true });
		await clock.advance(1);
		const after = memory.run('run', deadline);
		expect(after.result(0, 'a')).toBeUndefined();
		expect(after.watched).toBe(false);
	});

	it('drops an expired run at the next use, wherever it sits', async () => {
		const clock = new FakeClock();
		const memory = new WaitMemory(storesOn(clock, { waitingRuns: { maxEntries: 10 } }));
		memory.watch('long', at(clock, 600_000));
		memory.watch('short', at(clock, 1_000));
		memory.watch('newest', at(clock, 600_000));
		await clock.advance(1_000);
		memory.run('newest', at(clock, 600_000));
		expect(memory.size).toBe(2);
	});

	it('holds at most its bound of runs, the least recently used forgotten first', () => {
		const clock = new FakeClock();
		const memory = new WaitMemory(storesOn(clock, { waitingRuns: { maxEntries: 3 } }));
		const deadline = at(clock, 60_000);
		for (const key of ['a', 'b', 'c']) memory.watch(key, deadline);
		memory.run('a', deadline);
		memory.watch('d', deadline);
		expect(memory.size).toBe(3);
		expect(memory.run('a', deadline).watched).toBe(true);
		expect(memory.run('b', deadline).watched).toBe(false);
	});

	it('drops what it learned on resume, answers "resuming" for a while, then takes the run as unknown', async () => {
		const clock = new FakeClock();
		const memory = new WaitMemory(storesOn(clock, { waitingRuns: { maxEntries: 10 } }));
		memory.watch('a', undefined);
		const held = memory.run('a', undefined);
		held.remember(0, 'x', { isSafe: true });
		memory.resume('a');
		// A callback still holding the run sees it resumed, and its results gone.
		expect(held.resumedAt).toBe(clock.time);
		expect(held.result(0, 'x')).toBeUndefined();
		await clock.advance(RESUMING_MS - 1);
		expect(memory.run('a', undefined).resumedAt).toBeDefined();
		await clock.advance(1);
		const later = memory.run('a', undefined);
		expect([later.resumedAt, later.watched]).toEqual([undefined, false]);
	});

	it('keeps a run without a deadline for the default Wait Timeout', async () => {
		const clock = new FakeClock();
		const memory = new WaitMemory(storesOn(clock, { waitingRuns: { maxEntries: 10 } }));
		memory.watch('a', undefined);
		await clock.advance(3_599_999);
		expect(memory.run('a', undefined).watched).toBe(true);
		await clock.advance(1);
		expect(memory.run('a', undefined).watched).toBe(false);
	});

	it('keys a run by execution, node and deadline', () => {
		expect(new Set([runKey('1', 'A', 'x'), runKey('1', 'A', 'y'), runKey('1', 'B', 'x'), runKey('2', 'A', 'x')]).size).toBe(4);
	});
});

describe('RunMemory', () => {
	it('forgets a read that threw, so the next callback reads again', async () => {
		const run = new RunMemory(true, Infinity);
		await expect(run.read(0, 'a', async () => Promise.reject(new Error('credential unreadable')))).rejects.toThrow('credential unreadable');
		await expect(run.read(0, 'a', async () => ({ result: { id: 'a', isSafe: true } }))).resolves.toEqual({ result: { id: 'a', isSafe: true } });
	});

	it('reads an item once when callbacks need it at once, and not again once known', async () => {
		const run = new RunMemory(true, Infinity);
		const finish: Array<(outcome: Outcome) => void> = [];
		const reader = () => new Promise<Outcome>((resolve) => finish.push(resolve));
		const both = Promise.all([run.read(0, 'a', reader), run.read(0, 'a', reader)]);
		await flush();
		const reads = finish.length;
		for (const resolve of finish) resolve({ result: { id: 'a', isSafe: true } });
		expect(await both).toEqual([{ result: { id: 'a', isSafe: true } }, { result: { id: 'a', isSafe: true } }]);
		expect(await run.read(0, 'a', reader)).toEqual({ result: { id: 'a', isSafe: true } });
		expect(reads).toBe(1);
		expect(finish).toHaveLength(1);
	});

	it('does not take a read that found no result for one: the next need reads again', async () => {
		const run = new RunMemory(true, Infinity);
		const outcomes: Outcome[] = [{ pending: true }, { failed: 'HTTP 500' }, { result: { isSafe: false } }];
		let reads = 0;
		const reader = async () => outcomes[reads++];
		expect(await run.read(1, 'b', reader)).toEqual({ pending: true });
		expect(run.result(1, 'b')).toBeUndefined();
		expect(await run.read(1, 'b', reader)).toEqual({ failed: 'HTTP 500' });
		expect(await run.read(1, 'b', reader)).toEqual({ result: { isSafe: false } });
		expect(run.result(1, 'b')).toEqual({ isSafe: false });
	});

	it('keeps a refusal mark through a read that finds the result not ready: only a known result clears it', async () => {
		const run = new RunMemory(true, Infinity);
		run.refused.add(1);
		expect(await run.read(1, 'b', async () => ({ pending: true }))).toEqual({ pending: true });
		expect(run.refused.has(1)).toBe(true);
	});

	it('drops on resume what it learned, its refusal marks and its reads under way: a read after it reads again', async () => {
		const run = new RunMemory(true, Infinity);
		run.remember(0, 'a', { isSafe: true });
		run.refused.add(1);
		let finish: (outcome: Outcome) => void = () => {};
		const underWay = run.read(2, 'c', async () => await new Promise<Outcome>((resolve) => (finish = resolve)));
		run.drop(5);
		expect([run.result(0, 'a'), run.refused.size, run.resumedAt]).toEqual([undefined, 0, 5]);
		let reads = 0;
		const again = run.read(2, 'c', async () => (reads++, { pending: true }));
		expect(reads).toBe(1);
		finish({ pending: true });
		expect(await Promise.all([underWay, again])).toEqual([{ pending: true }, { pending: true }]);
	});

	it('knows a result only for the moderation it was learned for, and clears a refusal once known', () => {
		const run = new RunMemory(true, Infinity);
		run.refused.add(2);
		run.remember(2, 'c', { isSafe: true });
		expect(run.result(2, 'other')).toBeUndefined();
		expect(run.result(2, 'c')).toEqual({ isSafe: true });
		expect(run.refused.has(2)).toBe(false);
	});
});
