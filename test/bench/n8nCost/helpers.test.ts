/** The n8n-cost benchmark's pure helpers: /proc parsing, n8n's timestamps, pair ratios, profile summary, --only. */
import { onlyParts } from '../only';
import { packageOf, summarise, timeUnder, type CpuProfile } from './profile';
import { parseRssBytes, parseStat } from './proc';
import { costLine, executionsPerSecond, pairRatios, parseDbTime, parseEnvList } from './stats';

describe('n8n-cost helpers', () => {
	it('reads CPU ticks from a /proc stat line whose command holds spaces and parentheses', () => {
		const line = '4242 (node (n8n) main) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 11 0 123 0 0';
		expect(parseStat(line)).toEqual({ own: 300, reaped: 10 });
		expect(() => parseStat('4242 (node) S 1')).toThrow(/not a \/proc/);
	});

	it('reads VmRSS in bytes, 0 without it', () => {
		expect(parseRssBytes('Name:\tnode\nVmRSS:\t  2048 kB\nThreads: 11\n')).toBe(2048 * 1024);
		expect(parseRssBytes('Name:\tkthreadd\n')).toBe(0);
	});

	it("reads n8n's SQLite timestamps as UTC and ISO strings as given", () => {
		expect(parseDbTime('2026-11-25 19:40:00.123')).toBe(Date.UTC(2026, 10, 25, 19, 40, 0, 123));
		expect(parseDbTime('2026-11-25T19:40:00.123Z')).toBe(Date.UTC(2026, 10, 25, 19, 40, 0, 123));
		expect(parseDbTime('2026-11-25T20:40:00.000+01:00')).toBe(Date.UTC(2026, 10, 25, 19, 40));
		expect(parseDbTime(null)).toBeUndefined();
		expect(parseDbTime('not a time')).toBeUndefined();
	});

	it('counts finished executions per second from the first start to the last stop, running ones left out', () => {
		const rows = [
			{ status: 'success', startedAt: '2026-11-25 19:40:00.000', stoppedAt: '2026-11-25 19:40:01.000' },
			{ status: 'error', startedAt: '2026-11-25 19:40:00.500', stoppedAt: '2026-11-25 19:40:04.000' },
			{ status: 'running', startedAt: '2026-11-25 19:39:00.000', stoppedAt: null },
		];
		expect(executionsPerSecond(rows)).toEqual({ finished: 2, success: 1, seconds: 4, perSecond: 0.5 });
		expect(executionsPerSecond([]).perSecond).toBe(0);
	});

	it('takes the median of per-pair ratios, not the ratio of medians', () => {
		const run = (e: number, c: number, r: number) => ({ executionsPerSecond: e, cpuSeconds: c, peakRssBytes: r });
		const a = [run(5, 10, 100), run(10, 20, 100), run(6, 30, 130)];
		const b = [run(10, 10, 100), run(10, 10, 100), run(3, 10, 100)];
		// per pair: executions 0.5, 1, 2; CPU 1, 2, 3; RSS 1, 1, 1.3
		expect(pairRatios(a, b)).toEqual({ executions: 1, cpu: 2, rss: 1 });
		expect(costLine({ executions: 1, cpu: 2, rss: 1 })).toBe('n8n cost: executions/s A/B = 1, CPU A/B = 2, RSS A/B = 1');
	});

	it('parses BENCH_N8N_ENV and refuses a part without =', () => {
		expect(parseEnvList('A=1, B = x=y')).toEqual({ A: '1', B: 'x=y' });
		expect(parseEnvList(undefined)).toEqual({});
		expect(() => parseEnvList('A=1,B')).toThrow(/"B" is not NAME=value/);
	});

	it('names the package of a profiled script, this one wherever installed', () => {
		const cache = 'file:///root/.cache/n8n-nodes-content-moderation/n8n-2.41.1/node_modules';
		expect(packageOf(`${cache}/@n8n/typeorm/dist/query-builder/QueryBuilder.js`)).toBe('@n8n/typeorm');
		expect(packageOf(`${cache}/n8n-workflow/dist/cjs/node-helpers.js`)).toBe('n8n-workflow');
		expect(packageOf('/tmp/u/.n8n/nodes/node_modules/n8n-nodes-content-moderation/dist/x.js')).toBe('n8n-nodes-content-moderation');
		expect(packageOf('node:internal/streams/readable')).toBe('node:internal');
		expect(packageOf('', '(garbage collector)')).toBe('(garbage collector)');
	});

	it("charges a native function's self time to its nearest caller's package and counts time under this package", () => {
		const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
		const ours = '/n/node_modules/n8n-nodes-content-moderation/dist/get.js';
		const profile: CpuProfile = {
			nodes: [
				{ id: 1, callFrame: frame('(root)', ''), children: [2, 4] },
				{ id: 2, callFrame: frame('getId', ours), children: [3] },
				{ id: 3, callFrame: frame('evalClosureSync', ''), children: [] },
				{ id: 4, callFrame: frame('query', '/n/node_modules/@n8n/typeorm/q.js'), children: [] },
			],
			startTime: 0,
			endTime: 4000,
			samples: [3, 3, 4, 2],
			timeDeltas: [1000, 1000, 1000, 1000],
		};
		const s = summarise(profile);
		expect(s.totalMs).toBe(4);
		expect(s.packageInclusiveMs).toBe(3);
		expect(s.byPackage).toEqual([
			{ name: 'n8n-nodes-content-moderation (native)', ms: 2, share: 0.5 },
			{ name: '@n8n/typeorm', ms: 1, share: 0.25 },
			{ name: 'n8n-nodes-content-moderation', ms: 1, share: 0.25 },
		]);
		expect(timeUnder(profile, 'getId')).toBe(3);
		expect(timeUnder(profile, 'getId', 'typeorm')).toBe(0);
	});

	it('reads --only from the command line before BENCH_ONLY', () => {
		expect(onlyParts(['--only', 'n8n-cost'], 'S1')).toEqual(['n8n-cost']);
		expect(onlyParts(['--only=S1,S2'], undefined)).toEqual(['S1', 'S2']);
		expect(onlyParts([], 'S3, memory')).toEqual(['S3', 'memory']);
		expect(onlyParts([], undefined)).toBeUndefined();
	});
});
