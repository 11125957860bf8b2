/** The process's byte budget: first come first served, one larger body alone, cancel. */
import { ByteBudget } from '@package/nodes/ContentModeration/limiter/bytes';
import { AbortedWait } from '@package/nodes/ContentModeration/limiter/waiters';
import { flush } from '@test/helpers/fakeClock';

describe('ByteBudget', () => {
	it('holds body bytes within the budget, in order; one larger body goes alone', async () => {
		const budget = new ByteBudget(1000);
		const releaseA = await budget.reserve(600);
		const order: string[] = [];
		const b = budget.reserve(600).then((release) => (order.push('b'), release));
		const c = budget.reserve(100).then((release) => (order.push('c'), release));
		await flush();
		// c would fit, but does not overtake b.
		expect(order).toEqual([]);
		expect(budget.bytesInFlight).toBe(600);
		releaseA();
		await flush();
		expect(order).toEqual(['b', 'c']);
		(await b)();
		(await c)();
		expect(budget.bytesInFlight).toBe(0);
		const huge = await budget.reserve(5000);
		expect(budget.bytesInFlight).toBe(5000);
		huge();
		huge();
		expect(budget.bytesInFlight).toBe(0);
	});

	it('a cancelled wait leaves the queue and lets the next one in', async () => {
		const budget = new ByteBudget(1000);
		const releaseA = await budget.reserve(900);
		const controller = new AbortController();
		const cancelled = budget.reserve(900, controller.signal);
		let next = false;
		void budget.reserve(50).then(() => (next = true));
		controller.abort();
		await expect(cancelled).rejects.toBeInstanceOf(AbortedWait);
		await flush();
		expect(next).toBe(true);
		releaseA();
	});
});
