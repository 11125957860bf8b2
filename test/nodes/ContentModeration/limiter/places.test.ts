import { Places } from '@package/nodes/ContentModeration/limiter/places';

describe('Places', () => {
	it('counts sends in flight, and keeps a refused send’s place until its hold ends', () => {
		const places = new Places();
		expect([places.take(), places.take()]).toEqual([1, 2]);
		places.free(100);
		places.free(100, 600);
		expect(places.inFlight).toBe(0);
		expect(places.taken(100)).toBe(1);
		expect(places.taken(600)).toBe(0);
	});

	it('a hold already over frees the place at once', () => {
		const places = new Places();
		places.take();
		places.free(700, 600);
		expect(places.taken(700)).toBe(0);
	});

	it('a hold over by the time the send comes back is not kept: a clock that steps back (Date.now) does not bring it back', () => {
		const places = new Places();
		places.take();
		places.take();
		places.free(700, 600);
		places.free(700, 700);
		expect(places.taken(599)).toBe(0);
	});

	it('says when one more send fits under a limit: now, when a held place frees, or only after an answer', () => {
		const places = new Places();
		places.take();
		places.take();
		places.free(0, 500);
		places.free(0, 300);
		places.take();
		// One in flight, places held until 300 and 500.
		expect(places.freeAt(0, 4)).toBe(0);
		expect(places.freeAt(0, 3)).toBe(300);
		expect(places.freeAt(0, 2)).toBe(500);
		expect(places.freeAt(0, 1)).toBeUndefined();
	});
});
