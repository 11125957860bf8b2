/** Slow start's batches: the next batch goes out once the last one's answers are in, or its grace is over. */
import { BATCH_GRACE, SlowStartBatches } from '@package/nodes/ContentModeration/limiter/batches';

describe('SlowStartBatches', () => {
	it('is open until a batch\'s first answer; then closed until its last, and the next batch opens', () => {
		const batches = new SlowStartBatches();
		const first = [batches.sent(), batches.sent(), batches.sent()];
		expect(first).toEqual([0, 0, 0]);
		expect(batches.open(0)).toBe(true);
		batches.answered(0, 100, 100);
		expect(batches.open(101)).toBe(false);
		batches.answered(0, 102, 102);
		expect(batches.open(103)).toBe(false);
		batches.answered(0, 104, 104);
		expect(batches.open(105)).toBe(true);
		expect(batches.sent()).toBe(1);
	});

	it(`gives way ${BATCH_GRACE} x the first answer's latency after it, stragglers or not`, () => {
		const batches = new SlowStartBatches();
		batches.sent();
		batches.sent();
		batches.answered(0, 1000, 400);
		const graceEnds = 1000 + 400 * BATCH_GRACE;
		expect(batches.opensAt(1000)).toBe(graceEnds);
		expect(batches.open(graceEnds - 1)).toBe(false);
		expect(batches.open(graceEnds)).toBe(true);
		// The straggler's answer belongs to a batch gone by: it does not start closing the next one.
		expect([batches.sent(), batches.sent()]).toEqual([1, 1]);
		batches.answered(0, graceEnds + 5, 1000);
		expect(batches.open(graceEnds + 6)).toBe(true);
		expect(batches.sent()).toBe(1);
	});

	it('opensAt is now when a send may go out now', () => {
		const batches = new SlowStartBatches();
		expect(batches.opensAt(50)).toBe(50);
		batches.sent();
		batches.answered(0, 60, 60);
		expect(batches.opensAt(61)).toBe(61);
	});
});
