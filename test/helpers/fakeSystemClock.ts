/**
 * The package's system clock (helpers/clock.ts) on a fake clock for a test file, and `settle`: awaits a
 * promise while moving that clock on in small steps, giving real sockets (a scripted service) a turn each step.
 */
import { systemClock } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/clock';
import { FakeClock } from './fakeClock';

export function useFakeSystemClock(maxSteps = 2_000) {
	const clock = new FakeClock();
	beforeEach(() => {
		jest.spyOn(systemClock, 'now').mockImplementation(clock.now);
		jest.spyOn(systemClock, 'sleep').mockImplementation(clock.sleep);
	});
	afterEach(() => jest.restoreAllMocks());

	async function settle<T>(promise: Promise<T>): Promise<T> {
		let done = false;
		const settled = promise.finally(() => (done = true));
		for (let step = 0; step < maxSteps && !done; step++) {
			await clock.advance(50);
			await new Promise((resolve) => setImmediate(resolve));
		}
		return await settled;
	}
	return { clock, settle };
}
