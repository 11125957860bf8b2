/** Wait queues: FIFO, cancel by signal, and the turns shares take (round robin, FIFO within one). */
import { AbortedWait, once, Turns, type Waiter } from '@package/nodes/ContentModeration/limiter/waiters';
import { flush } from '@test/helpers/fakeClock';

interface TestParty {
	name: string;
	queue: Array<Waiter<string>>;
}

describe('Turns.enqueue', () => {
	it('settles with what the waiter is resolved with; a cancelled wait leaves the queue', async () => {
		const turns = new Turns<string, TestParty>();
		const party: TestParty = { name: 'a', queue: [] };
		const controller = new AbortController();
		let cancelled = 0;
		const kept = turns.enqueue(party, 0, undefined, () => {});
		const dropped = turns.enqueue(party, 0, controller.signal, () => cancelled++);
		expect(party.queue).toHaveLength(2);
		controller.abort();
		await expect(dropped).rejects.toBeInstanceOf(AbortedWait);
		await expect(dropped).rejects.toThrow('cancelled while waiting to send');
		expect(cancelled).toBe(1);
		expect(party.queue).toHaveLength(1);
		turns.next(() => true)!.waiter.resolve('go');
		await expect(kept).resolves.toBe('go');
	});

	it('an aborted signal rejects at once, without queueing', async () => {
		const turns = new Turns<string, TestParty>();
		const party: TestParty = { name: 'a', queue: [] };
		const controller = new AbortController();
		controller.abort();
		const wait = turns.enqueue(party, 10, controller.signal, () => {});
		await expect(wait).rejects.toBeInstanceOf(AbortedWait);
		await expect(wait).rejects.toThrow('cancelled while waiting to send');
		expect(turns.waiting).toBe(0);
	});

	it('a signal that aborts after the waiter was resolved cancels nothing', async () => {
		const turns = new Turns<string, TestParty>();
		const party: TestParty = { name: 'a', queue: [] };
		const controller = new AbortController();
		let cancelled = 0;
		const wait = turns.enqueue(party, 0, controller.signal, () => cancelled++);
		turns.next(() => true)!.waiter.resolve('go');
		await expect(wait).resolves.toBe('go');
		controller.abort();
		expect(cancelled).toBe(0);
	});
});

describe('Turns', () => {
	it('takes one waiter per party in turn, first come first served within a party, skipping parties that may not start', async () => {
		const turns = new Turns<string, TestParty>();
		const a: TestParty = { name: 'a', queue: [] };
		const b: TestParty = { name: 'b', queue: [] };
		const order: string[] = [];
		for (const [party, label] of [[a, 'a1'], [a, 'a2'], [a, 'a3'], [b, 'b1']] as const) {
			void turns.enqueue(party, 0, undefined, () => {}).then(() => order.push(label));
		}
		expect(turns.waiting).toBe(4);
		const take = (mayStart: (p: TestParty) => boolean) => {
			const next = turns.next(mayStart);
			next?.waiter.resolve(next.party.name);
			return next?.party.name;
		};
		expect([take(() => true), take(() => true), take(() => true)]).toEqual(['a', 'b', 'a']);
		// Party a may not start: nothing else waits.
		expect(take((p) => p !== a)).toBeUndefined();
		expect(take(() => true)).toBe('a');
		await flush();
		expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
		expect(turns.waiting).toBe(0);
	});

	it('a cancelled waiter leaves its party\'s queue, and a party with none leaves the turns', async () => {
		const turns = new Turns<string, TestParty>();
		const a: TestParty = { name: 'a', queue: [] };
		const b: TestParty = { name: 'b', queue: [] };
		const controller = new AbortController();
		const gone = turns.enqueue(a, 0, controller.signal, () => {});
		void turns.enqueue(b, 0, undefined, () => {});
		controller.abort();
		await expect(gone).rejects.toBeInstanceOf(AbortedWait);
		expect(turns.waiting).toBe(1);
		expect(turns.next(() => true)?.party).toBe(b);
	});

	it('a waiter cancelled after it was taken leaves the others in its party\'s queue', async () => {
		const turns = new Turns<string, TestParty>();
		const a: TestParty = { name: 'a', queue: [] };
		const controller = new AbortController();
		const taken = turns.enqueue(a, 0, controller.signal, () => {});
		void turns.enqueue(a, 0, undefined, () => {});
		expect(turns.next(() => true)?.party).toBe(a);
		controller.abort();
		await expect(taken).rejects.toBeInstanceOf(AbortedWait);
		expect(turns.waiting).toBe(1);
		expect(a.queue).toHaveLength(1);
		expect(turns.next(() => true)?.party).toBe(a);
	});
});

describe('once', () => {
	it('acts on the first call only', () => {
		let calls = 0;
		const release = once(() => calls++);
		release();
		release();
		expect(calls).toBe(1);
	});
});
