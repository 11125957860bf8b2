/** T1's target: the slow-start round trips the shared limiter needs, from the level a run starts at. */
import { INITIAL_LIMIT } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/adaptiveLimit';
import { SHARED_CAP } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/limiter';
import { OVERHEAD, slowStartRounds, textTargetSeconds } from './text';

describe('slowStartRounds', () => {
	it.each([
		// 20 + 60 + 180 = 260 < 300: a fourth round sends the last 40.
		[300, INITIAL_LIMIT, 4],
		[260, INITIAL_LIMIT, 3],
		[261, INITIAL_LIMIT, 4],
		[1, INITIAL_LIMIT, 1],
		[20, INITIAL_LIMIT, 1],
		[21, INITIAL_LIMIT, 2],
		[300, 540, 1],
		[300, 300, 1],
		[300, 299, 2],
		[0, INITIAL_LIMIT, 0],
	])('%i sends from a limit of %i take %i rounds', (count, start, rounds) => {
		expect(slowStartRounds(count, start)).toBe(rounds);
	});

	it('stops growing at the cap', () => {
		// 20, 60, 180, 540, then 1000 per round: 800 + 1000 + 1000 covers 2800.
		expect(slowStartRounds(2800, INITIAL_LIMIT)).toBe(6);
		expect(slowStartRounds(2801, INITIAL_LIMIT)).toBe(7);
		expect(slowStartRounds(3 * SHARED_CAP, 5000)).toBe(3);
	});

	it('refuses a limit below 1 (it would never finish)', () => {
		expect(() => slowStartRounds(10, 0)).toThrow(RangeError);
		expect(() => slowStartRounds(10, 5, 0.5)).toThrow(RangeError);
	});
});

describe('textTargetSeconds', () => {
	it('is the overhead times (processing + latency) per round', () => {
		expect(OVERHEAD).toBe(1.2);
		expect(textTargetSeconds(300, INITIAL_LIMIT, 500, 50)).toBeCloseTo(1.2 * 0.55 * 4, 9);
		expect(textTargetSeconds(300, 540, 500, 50)).toBeCloseTo(0.66, 9);
	});

	it("adds n8n's fixed cost of the run, never a negative one", () => {
		expect(textTargetSeconds(300, 540, 500, 50, 0.4)).toBeCloseTo(1.06, 9);
		expect(textTargetSeconds(300, 540, 500, 50, -0.1)).toBeCloseTo(0.66, 9);
	});
});
