/** Processes as Linux's /proc shows them (the e2e suites run on Linux): what a case started and what is left. */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface Proc {
	pid: number;
	ppid: number;
	pgid: number;
	/** Start time in clock ticks since boot: tells a process from a later one given the same PID. */
	start: string;
}

/** Every live process now; one that ends while being read, or has ended and awaits its reaping (a zombie), is left out. */
export function listProcesses(): Proc[] {
	const procs: Proc[] = [];
	for (const name of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			// After "pid (comm) ": state ppid pgrp ..., starttime is the 22nd field of the line.
			const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (f[0] === 'Z' || f[0] === 'X') continue;
			procs.push({ pid: Number(name), ppid: Number(f[1]), pgid: Number(f[2]), start: f[19] });
		} catch {
			// gone meanwhile
		}
	}
	return procs;
}

/** `rootPid` and every process under it now, including those it started in process groups of their own. */
export function processTree(rootPid: number): Proc[] {
	const procs = listProcesses();
	const tree = procs.filter((p) => p.pid === rootPid);
	for (let i = 0; i < tree.length; i++) tree.push(...procs.filter((p) => p.ppid === tree[i].pid));
	return tree;
}

function read(pid: number, file: string): string {
	try {
		return file === 'cwd' ? readlinkSync(`/proc/${pid}/cwd`) : readFileSync(`/proc/${pid}/${file}`, 'utf8');
	} catch {
		return '';
	}
}

/**
 * What is still running of `started` (same PID and start time, or a member of one of their process groups),
 * and any process whose working directory, environment or command line names one of `paths`: n8n runs as
 * `node <cache>/n8n/bin/n8n start` in its user folder, so only its cwd and N8N_USER_FOLDER name that folder.
 * Each as "pid command line"; this process is never counted.
 */
export function leftOver(started: Proc[], paths: string[]): string[] {
	const procs = listProcesses();
	const ownGroup = procs.find((p) => p.pid === process.pid)?.pgid;
	const groups = new Set(started.map((p) => p.pgid).filter((g) => g !== ownGroup));
	return procs
		.filter((p) => p.pid !== process.pid)
		.filter(
			(p) =>
				started.some((s) => s.pid === p.pid && s.start === p.start) ||
				groups.has(p.pgid) ||
				paths.some((path) => ['cwd', 'environ', 'cmdline'].some((file) => read(p.pid, file).includes(path))),
		)
		.map((p) => `${p.pid} ${read(p.pid, 'cmdline').replace(/\0/g, ' ').trim().slice(0, 200)}`);
}
