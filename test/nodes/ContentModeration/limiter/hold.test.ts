import { HOLD_MS, MAX_HOLD_MS, RefusalHold } from '@package/nodes/ContentModeration/limiter/hold';

describe('RefusalHold', () => {
	it('lets the limit grow freely until a refusal', () => {
		expect(new RefusalHold().allow(0, 10, 30)).toBe(30);
	});

	it('after a refusal: at most one above the new level until the hold ends', () => {
		const hold = new RefusalHold();
		hold.start(0, 10, 20);
		expect(hold.allow(1, 10, 30)).toBe(11);
		// Never below where the limit already is.
		expect(hold.allow(1, 15, 30)).toBe(15);
		expect(hold.allow(HOLD_MS, 11, 30)).toBe(30);
	});

	it('each further refusal doubles the hold, up to MAX_HOLD_MS; passing the refused level resets it', () => {
		const hold = new RefusalHold();
		hold.start(0, 10, 20);
		hold.start(0, 10, 20);
		expect(hold.allow(2 * HOLD_MS - 1, 10, 30)).toBe(11);
		for (let i = 0; i < 5; i++) hold.start(0, 10, 20);
		expect(hold.allow(MAX_HOLD_MS - 1, 10, 30)).toBe(11);
		expect(hold.allow(MAX_HOLD_MS, 10, 30)).toBe(30);
		// Grown to the refused level + 2 without a refusal: the next hold is back to twice HOLD_MS, not 60 s.
		expect(hold.allow(MAX_HOLD_MS, 21, 22)).toBe(22);
		hold.start(MAX_HOLD_MS, 10, 20);
		expect(hold.allow(MAX_HOLD_MS + 2 * HOLD_MS - 1, 10, 30)).toBe(11);
		expect(hold.allow(MAX_HOLD_MS + 2 * HOLD_MS, 10, 30)).toBe(30);
	});
});
