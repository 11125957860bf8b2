/** Makes sure Debian's chromium is present (installs it with apt-get when missing; e2e runs as root). */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

function run(cmd: string, args: string[], timeoutMs: number): Promise<void> {
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

export async function ensureChromium(log: (l: string) => void = console.log): Promise<string> {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	log('chromium: installing Debian chromium with apt-get (about a minute)...');
	const t = Date.now();
	await run('apt-get', ['update', '-qq'], 300_000);
	await run('apt-get', ['install', '-y', '-qq', 'chromium'], 600_000);
	if (!existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM} after apt-get install`);
	log(`chromium: installed in ${((Date.now() - t) / 1000).toFixed(0)}s`);
	return CHROMIUM;
}

if (require.main === module) {
	ensureChromium().then(
		(p) => console.log(`chromium at ${p}`),
		(e) => {
			console.error(e.message);
			process.exit(1);
		},
	);
}
