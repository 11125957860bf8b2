/** Pure figures of the n8n-cost benchmark: n8n's timestamps, executions per second, the pairs' ratios. */
import { median } from '../harness';

/** n8n's SQLite timestamps ("2026-11-25 19:40:00.123", UTC) and ISO strings, as ms since the epoch. */
export function parseDbTime(value: string | number | null | undefined): number | undefined {
	if (value === null || value === undefined || value === '') return undefined;
	if (typeof value === 'number') return value;
	const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value.replace(' ', 'T') : `${value.replace(' ', 'T')}Z`;
	const ms = Date.parse(iso);
	return Number.isNaN(ms) ? undefined : ms;
}

export interface ExecutionTimes {
	status: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

/** Finished executions per second, from the first start to the last stop n8n recorded. */
export function executionsPerSecond(rows: ExecutionTimes[]): { finished: number; success: number; seconds: number; perSecond: number } {
	const done = rows.filter((r) => !['new', 'running', 'waiting'].includes(r.status));
	const starts = done.map((r) => parseDbTime(r.startedAt)).filter((t): t is number => t !== undefined);
	const stops = done.map((r) => parseDbTime(r.stoppedAt)).filter((t): t is number => t !== undefined);
	const seconds = starts.length && stops.length ? (Math.max(...stops) - Math.min(...starts)) / 1000 : 0;
	return {
		finished: done.length,
		success: done.filter((r) => r.status === 'success').length,
		seconds: Number(seconds.toFixed(3)),
		perSecond: seconds > 0 ? Number((done.length / seconds).toFixed(2)) : 0,
	};
}

export interface RunFigures {
	executionsPerSecond: number;
	cpuSeconds: number;
	peakRssBytes: number;
}

/**
 * Medians over pairs of the per-pair ratios x/y (each pair ran side by side, so the machine's drift
 * cancels within a pair), of executions/s, CPU seconds and peak RSS.
 */
export function pairRatios(xs: RunFigures[], ys: RunFigures[]): { executions: number; cpu: number; rss: number } {
	const n = Math.min(xs.length, ys.length);
	const ratio = (f: (r: RunFigures) => number) => {
		const values: number[] = [];
		for (let i = 0; i < n; i++) if (f(ys[i]) > 0) values.push(f(xs[i]) / f(ys[i]));
		return values.length ? Number(median(values).toFixed(2)) : NaN;
	};
	return { executions: ratio((r) => r.executionsPerSecond), cpu: ratio((r) => r.cpuSeconds), rss: ratio((r) => r.peakRssBytes) };
}

/** The benchmark's closing line. */
export function costLine(r: { executions: number; cpu: number; rss: number }, x = 'A', y = 'B', prefix = 'n8n cost'): string {
	return `${prefix}: executions/s ${x}/${y} = ${r.executions}, CPU ${x}/${y} = ${r.cpu}, RSS ${x}/${y} = ${r.rss}`;
}

/** `K=V,K=V` (BENCH_N8N_ENV) as an object. */
export function parseEnvList(text: string | undefined): Record<string, string> {
	const env: Record<string, string> = {};
	for (const part of (text ?? '').split(',')) {
		const eq = part.indexOf('=');
		if (eq > 0) env[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
		else if (part.trim() !== '') throw new Error(`BENCH_N8N_ENV: "${part.trim()}" is not NAME=value`);
	}
	return env;
}
