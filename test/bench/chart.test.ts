/**
 * The bench chart's numbers: requests in flight are time-weighted per bin (so back-to-back 200-ms waves
 * read as their level), completed items count only 2xx, and the time axis gets round labels.
 */
import { curves, renderChart, timeStep } from './chart';

const at = (points: Array<[number, number]>, t: number) => points.filter(([pt]) => pt <= t).pop()![1];

describe('bench chart', () => {
	it('averages requests in flight over each bin: two back-to-back waves of 10 read as 10 throughout', () => {
		const wave = (start: number) =>
			Array.from({ length: 10 }, () => ({
				start,
				end: start + 200,
				status: 200,
			}));
		const { inFlight } = curves([...wave(0), ...wave(200)], 400);
		for (const t of [0, 150, 199, 200, 350]) expect(at(inFlight, t)).toBeCloseTo(10, 5);
	});

	it('counts only 2xx answers as completed, at the bin where they ended', () => {
		const { done } = curves(
			[
				{ start: 0, end: 100, status: 200 },
				{ start: 0, end: 100, status: 429 },
				{ start: 100, end: 300, status: 201 },
			],
			400,
		);
		expect(at(done, 99)).toBe(0);
		expect(at(done, 101)).toBe(1);
		expect(at(done, 400)).toBe(2);
	});

	it('labels time in round steps, 5 to 10 of them', () => {
		expect(timeStep(1_550)).toBe(200);
		expect(timeStep(4_000)).toBe(500);
		expect(timeStep(21_450)).toBe(5_000);
		expect(timeStep(900)).toBe(100);
	});

	it('draws in flight on a log scale with decade labels up to the peak rounded up', () => {
		const svg = renderChart([
			{
				title: 'S',
				items: 1,
				series: [
					{
						label: 'a',
						color: '#000',
						exchanges: [{ start: 0, end: 200, status: 200 }],
					},
					{
						label: 'b',
						color: '#111',
						exchanges: Array.from({ length: 500 }, () => ({
							start: 0,
							end: 100,
							status: 429,
						})),
					},
				],
			},
		]);
		expect(svg).toContain('requests in flight at the service (log scale)');
		// The in-flight chart is the second one: its labels come after its title.
		const lower = svg.slice(svg.indexOf('(log scale)'));
		const labelY = (v: number) => Number(new RegExp(`y="([\\d.]+)"[^>]*text-anchor="end">${v}<`).exec(lower)![1]);
		// 10 of 1000 sits log(11)/log(1001) = 0.35 of the way up, not 0.01 as on a linear axis.
		expect((labelY(0) - labelY(10)) / (labelY(0) - labelY(1000))).toBeCloseTo(Math.log10(11) / Math.log10(1001), 2);
		expect(labelY(100)).toBeLessThan(labelY(10));
		expect(svg).toContain('(500 × 429: ticks)');
	});
});
