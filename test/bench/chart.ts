/**
 * The bench's picture, hand-written SVG (no plotting dependency): for each scenario, items completed over
 * time (top) and requests in flight at the service (bottom, log scale), one line per variant, the scenario's limit
 * as a dashed line, and each 429 as a tick under the time axis in the variant's colour.
 */

/** One exchange seen at the service, in ms from the scenario's start. */
export interface Exchange {
	start: number;
	end: number;
	status: number;
}

export interface Series {
	label: string;
	color: string;
	exchanges: Exchange[];
}

export interface Panel {
	title: string;
	items: number;
	series: Series[];
	/** Items completed at time t (ms) if the service's limit were the only bound, e.g. N/R. */
	limit?: { label: string; itemsAt: (ms: number) => number; endMs: number };
}

const W = 640;
const H = 220;
const PAD = { left: 52, right: 16, top: 28, bottom: 36 };

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (n: number) => (Math.round(n * 10) / 10).toString();

/** A line through (t, value) points. */
function path(points: Array<[number, number]>, x: (t: number) => number, y: (v: number) => number): string {
	return points.map(([t, v], i) => `${i === 0 ? 'M' : 'L'}${fmt(x(t))},${fmt(y(v))}`).join(' ');
}

const BINS = 400;

/**
 * Completed items (2xx answers) at the end of each of BINS time bins, and requests in flight averaged over
 * each bin (time-weighted), so waves of 200-ms requests read as a level, not as a comb down to 0.
 */
export function curves(
	exchanges: Exchange[],
	endMs: number,
): { done: Array<[number, number]>; inFlight: Array<[number, number]> } {
	const width = endMs / BINS;
	const doneIn = new Array<number>(BINS).fill(0);
	const busy = new Array<number>(BINS).fill(0);
	const bin = (t: number) => Math.min(BINS - 1, Math.max(0, Math.floor(t / width)));
	for (const e of exchanges) {
		if (e.status >= 200 && e.status < 300) doneIn[bin(e.end)]++;
		for (let i = bin(e.start); i <= bin(e.end); i++) {
			busy[i] += Math.max(0, Math.min(e.end, (i + 1) * width) - Math.max(e.start, i * width));
		}
	}
	const done: Array<[number, number]> = [[0, 0]];
	const inFlight: Array<[number, number]> = [];
	let completed = 0;
	for (let i = 0; i < BINS; i++) {
		completed += doneIn[i];
		done.push([(i + 1) * width, completed]);
		inFlight.push([i * width, busy[i] / width], [(i + 1) * width, busy[i] / width]);
	}
	return { done, inFlight };
}

/** A round time step (0.1 s, 0.2 s, 0.5 s, 1 s, 2 s, 5 s, ...) giving 5 to 10 labels. */
export function timeStep(endMs: number): number {
	for (let decade = 100; ; decade *= 10) {
		for (const m of [1, 2, 5]) if (endMs / (m * decade) <= 10) return m * decade;
	}
}

/** 1, 10, 100, ... up to max. */
function decades(max: number): number[] {
	const out: number[] = [];
	for (let v = 1; v <= max; v *= 10) out.push(v);
	return out;
}

/** A panel's time span and each series' curves, computed once for both of its charts. */
function panelCurves(panel: Panel) {
	const endMs = Math.max(1, panel.limit?.endMs ?? 0, ...panel.series.flatMap((s) => s.exchanges.map((e) => e.end)));
	return { endMs, all: panel.series.map((s) => ({ s, c: curves(s.exchanges, endMs) })) };
}

function chart(
	panel: Panel,
	{ endMs, all }: ReturnType<typeof panelCurves>,
	ox: number,
	oy: number,
	kind: 'done' | 'inFlight',
): string {
	const peak = Math.max(1, ...all.flatMap(({ c }) => c.inFlight.map(([, v]) => v)));
	// In flight on a log scale: the node's ~10 and HTTP Request's ~500 must both be readable.
	const maxY = kind === 'done' ? panel.items : 10 ** Math.ceil(Math.log10(peak + 1));
	const scale = kind === 'done' ? (v: number) => v / maxY : (v: number) => Math.log10(1 + v) / Math.log10(1 + maxY);
	const x = (t: number) => ox + PAD.left + (t / endMs) * (W - PAD.left - PAD.right);
	const y = (v: number) => oy + H - PAD.bottom - scale(v) * (H - PAD.top - PAD.bottom);
	const parts: string[] = [];
	const title =
		kind === 'done'
			? `${panel.title}: items the service answered 2xx`
			: `${panel.title}: requests in flight at the service (log scale)`;
	parts.push(`<text x="${ox + PAD.left}" y="${oy + 18}" font-size="13" font-weight="bold">${esc(title)}</text>`);
	// Axes and ticks.
	parts.push(`<line x1="${x(0)}" y1="${y(0)}" x2="${x(endMs)}" y2="${y(0)}" stroke="#444"/>`);
	parts.push(`<line x1="${x(0)}" y1="${y(0)}" x2="${x(0)}" y2="${y(maxY)}" stroke="#444"/>`);
	const stepMs = timeStep(endMs);
	for (let t = 0; t <= endMs; t += stepMs) {
		parts.push(`<text x="${fmt(x(t))}" y="${y(0) + 14}" font-size="10" text-anchor="middle">${fmt(t / 1000)}s</text>`);
	}
	const yTicks = kind === 'done' ? [0, Math.round(maxY / 2), maxY] : [0, ...decades(maxY)];
	for (const v of yTicks) {
		parts.push(`<text x="${x(0) - 4}" y="${fmt(y(v) + 3)}" font-size="10" text-anchor="end">${v}</text>`);
		parts.push(`<line x1="${x(0)}" y1="${fmt(y(v))}" x2="${x(endMs)}" y2="${fmt(y(v))}" stroke="#ddd"/>`);
	}
	if (kind === 'done' && panel.limit) {
		const { itemsAt, endMs: limitEnd } = panel.limit;
		const pts: Array<[number, number]> = [];
		for (let t = 0; t <= limitEnd; t += limitEnd / 50) pts.push([t, Math.min(panel.items, itemsAt(t))]);
		parts.push(`<path d="${path(pts, x, y)}" fill="none" stroke="#777" stroke-dasharray="5,4" stroke-width="1.5"/>`);
	}
	for (const { s, c } of all) {
		parts.push(
			`<path d="${path(kind === 'done' ? c.done : c.inFlight, x, y)}" fill="none" stroke="${s.color}" stroke-width="1.6"/>`,
		);
		if (kind === 'done') {
			// 429s as ticks under the time labels, one row per series.
			const row = all.findIndex((a) => a.s === s);
			const ticks = s.exchanges
				.filter((e) => e.status === 429)
				.map((e) => `M${fmt(x(e.end))},${fmt(y(0) + 19 + row * 5)} v4`)
				.join(' ');
			if (ticks) parts.push(`<path d="${ticks}" stroke="${s.color}" stroke-width="1"/>`);
		}
	}
	return parts.join('\n');
}

/** The SVG document: one column per panel (scenario), completed items above, in-flight below, a legend. */
export function renderChart(panels: Panel[]): string {
	const legendRows = Math.max(...panels.map((p) => p.series.length + (p.limit ? 1 : 0))) + 1;
	const width = W * panels.length;
	const height = 2 * H + 22 + legendRows * 16;
	const body: string[] = [];
	panels.forEach((panel, i) => {
		const computed = panelCurves(panel);
		body.push(chart(panel, computed, i * W, 0, 'done'));
		body.push(chart(panel, computed, i * W, H + 10, 'inFlight'));
		let ly = 2 * H + 30;
		const lx = i * W + PAD.left;
		for (const s of panel.series) {
			const count429 = s.exchanges.filter((e) => e.status === 429).length;
			body.push(
				`<line x1="${lx}" y1="${ly - 4}" x2="${lx + 18}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"/>`,
			);
			body.push(
				`<text x="${lx + 24}" y="${ly}" font-size="10.5">${esc(s.label)}${count429 ? ` (${count429} × 429: ticks)` : ''}</text>`,
			);
			ly += 16;
		}
		if (panel.limit) {
			body.push(
				`<line x1="${lx}" y1="${ly - 4}" x2="${lx + 18}" y2="${ly - 4}" stroke="#777" stroke-dasharray="5,4" stroke-width="1.5"/>`,
			);
			body.push(`<text x="${lx + 24}" y="${ly}" font-size="11">${esc(panel.limit.label)}</text>`);
		}
	});
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
		`<rect width="100%" height="100%" fill="#fff"/>`,
		...body,
		'</svg>',
		'',
	].join('\n');
}
