/** Debian packages the dev stack needs (postgresql, redis-server), installed with apt-get when missing. */
import { spawn } from 'node:child_process';

/** Runs a command to completion (bounded by timeoutMs); rejects with the tail of its output. */
export function run(cmd: string, args: string[], timeoutMs: number): Promise<void> {
	return new Promise((res, rej) => {
		const child = spawn(cmd, args, {
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
		let tail = '';
		const keep = (d: Buffer) => (tail = (tail + d.toString()).slice(-3000));
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('error', rej);
		child.on('exit', (code) => {
			clearTimeout(timer);
			if (code === 0) res();
			else rej(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${tail}`));
		});
	});
}

/** `apt-get update && apt-get install -y <packages>` (as root) unless `present()` already holds. */
export async function ensureDebianPackages(packages: string[], present: () => boolean, log: (l: string) => void): Promise<void> {
	if (present()) return;
	if (process.getuid?.() !== 0) {
		throw new Error(`${packages.join(', ')} missing: run as root, or install them: apt-get install -y ${packages.join(' ')}`);
	}
	log(`installing ${packages.join(', ')} with apt-get (a minute or so)...`);
	const t = Date.now();
	await run('apt-get', ['update', '-qq'], 300_000);
	await run('apt-get', ['install', '-y', '-qq', ...packages], 600_000);
	if (!present()) throw new Error(`${packages.join(', ')} still missing after apt-get install`);
	log(`${packages.join(', ')} installed in ${((Date.now() - t) / 1000).toFixed(0)}s`);
}
