/** The process's clock: real time, and n8n's sleep. */
import { systemClock } from '@package/nodes/ContentModeration/helpers/clock';

test('tells the time and sleeps about as long as asked', async () => {
	const before = Date.now();
	expect(Math.abs(systemClock.now() - before)).toBeLessThan(1_000);
	const started = performance.now();
	await systemClock.sleep(30);
	expect(performance.now() - started).toBeGreaterThanOrEqual(25);
});
