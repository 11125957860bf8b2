/**
 * CPU time and memory of a process tree as Linux's /proc shows them: n8n's main process and what it
 * started (the task runner). Sampled, so a short-lived child between two samples is seen only through its
 * parent's cutime/cstime once reaped.
 */
import { readFileSync } from 'node:fs';

import { processTree } from '../../e2e/processes';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
export const CLOCK_TICKS = 100;

export interface StatTimes {
	/** utime + stime of the process itself, in ticks */
	own: number;
	/** cutime + cstime: children it has reaped, in ticks */
	reaped: number;
}

/** The CPU fields of one /proc/<pid>/stat line (the command may hold spaces and parentheses). */
export function parseStat(line: string): StatTimes {
	const fields = line.slice(line.lastIndexOf(')') + 2).trim().split(/\s+/);
	// After "pid (comm) ": state(0) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(11) stime cutime cstime
	const n = (i: number) => Number(fields[i]);
	if (fields.length < 15 || [11, 12, 13, 14].some((i) => !Number.isFinite(n(i)))) {
		throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
	}
	return { own: n(11) + n(12), reaped: n(13) + n(14) };
}

/** VmRSS of /proc/<pid>/status, in bytes; 0 when absent (a zombie, a kernel thread). */
export function parseRssBytes(status: string): number {
	const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
	return match ? Number(match[1]) * 1024 : 0;
}

function read(path: string): string | undefined {
	try {
		return readFileSync(path, 'utf8');
	} catch {
		return undefined;
	}
}

export interface TreeSample {
	/** CPU seconds of the tree: every live member's own time plus the root's reaped children */
	cpuSeconds: number;
	rssBytes: number;
	/** RSS per pid (main, task runner) */
	perProcess: Array<{ pid: number; rssBytes: number; cpuSeconds: number }>;
}

export function sampleTree(rootPid: number): TreeSample {
	const perProcess: TreeSample['perProcess'] = [];
	let ticks = 0;
	for (const p of processTree(rootPid)) {
		const stat = read(`/proc/${p.pid}/stat`);
		const status = read(`/proc/${p.pid}/status`);
		if (stat === undefined || status === undefined) continue;
		const times = parseStat(stat);
		const own = times.own + (p.pid === rootPid ? times.reaped : 0);
		ticks += own;
		perProcess.push({ pid: p.pid, rssBytes: parseRssBytes(status), cpuSeconds: own / CLOCK_TICKS });
	}
	return {
		cpuSeconds: ticks / CLOCK_TICKS,
		rssBytes: perProcess.reduce((sum, p) => sum + p.rssBytes, 0),
		perProcess,
	};
}

/** Samples a tree every `everyMs` until stopped: CPU used since start, peak RSS seen. */
export class TreeMonitor {
	private readonly start: TreeSample;
	private peak: TreeSample;
	private readonly timer: NodeJS.Timeout;

	constructor(
		private readonly rootPid: number,
		everyMs = 100,
	) {
		this.start = sampleTree(rootPid);
		this.peak = this.start;
		this.timer = setInterval(() => this.sample(), everyMs);
	}

	private sample(): TreeSample {
		const now = sampleTree(this.rootPid);
		if (now.rssBytes > this.peak.rssBytes) this.peak = now;
		return now;
	}

	stop(): { cpuSeconds: number; peakRssBytes: number; startRssBytes: number; peakPerProcess: TreeSample['perProcess'] } {
		clearInterval(this.timer);
		const end = this.sample();
		return {
			cpuSeconds: end.cpuSeconds - this.start.cpuSeconds,
			peakRssBytes: this.peak.rssBytes,
			startRssBytes: this.start.rssBytes,
			peakPerProcess: this.peak.perProcess,
		};
	}
}
