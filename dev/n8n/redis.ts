/**
 * A throwaway Redis for one run: Debian's `redis-server` (installed with apt-get when missing) in the
 * foreground on a free 127.0.0.1 port, without persistence, in its own process group.
 */
import { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ensureDebianPackages } from './apt';
import { freePort } from '../ports';
import { killTree, spawnGroup } from './server';

const REDIS = '/usr/bin/redis-server';

export interface Redis {
	host: string;
	port: number;
	logFile: string;
	process: ChildProcess;
	/** QUEUE_BULL_REDIS_* variables for n8n */
	n8nEnv(): Record<string, string>;
	stop(): Promise<void>;
}

/** Sends one inline command and resolves with the first reply line. */
export function redisCommand(port: number, command: string, timeoutMs = 2000): Promise<string> {
	return new Promise((res, rej) => {
		const socket = connect({ host: '127.0.0.1', port });
		let buf = '';
		socket.setTimeout(timeoutMs, () => socket.destroy(new Error('redis: timeout')));
		socket.on('error', rej);
		socket.on('connect', () => socket.write(`${command}\r\n`));
		socket.on('data', (d) => {
			buf += d.toString();
			if (buf.includes('\r\n')) {
				socket.end();
				res(buf.split('\r\n')[0]);
			}
		});
	});
}

/** `logDir` receives redis.log. */
export async function startRedis(logDir: string, log: (l: string) => void = () => undefined): Promise<Redis> {
	await ensureDebianPackages(['redis-server'], () => existsSync(REDIS), log);
	const port = await freePort();
	const logFile = join(logDir, 'redis.log');
	const child = spawnGroup(
		REDIS,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', logDir, '--logfile', ''],
		{ env: process.env },
	);
	const out = createWriteStream(logFile, { flags: 'a' });
	child.stdout!.pipe(out);
	child.stderr!.pipe(out);
	const t0 = Date.now();
	for (;;) {
		if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}; see ${logFile}`);
		try {
			if ((await redisCommand(port, 'PING')) === '+PONG') break;
		} catch {
			// not listening yet
		}
		if (Date.now() - t0 > 30_000) {
			await killTree(child);
			throw new Error(`redis-server not ready within 30s; see ${logFile}`);
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	log(`redis ready on 127.0.0.1:${port}`);
	return {
		host: '127.0.0.1',
		port,
		logFile,
		process: child,
		n8nEnv: () => ({ QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) }),
		async stop() {
			await killTree(child);
			out.end();
		},
	};
}
