/**
 * Starts and stops a headless n8n on 127.0.0.1 from the cached install, with a fresh user folder,
 * and runs n8n CLI commands against that same user folder.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../ports';
import { n8nBin, node24, node24Env } from './install';

export interface N8nInstance {
	url: string;
	port: number;
	userFolder: string;
	/** <userFolder>/.n8n: database.sqlite, nodes/, logs */
	dataDir: string;
	logFile: string;
	env: NodeJS.ProcessEnv;
	process?: ChildProcess;
	start(timeoutMs?: number): Promise<void>;
	/** Changes n8n's settings from the next start (and CLI call) on: a restart then runs with them. */
	setEnv(changes: Record<string, string>): void;
	stop(): Promise<void>;
	/** Runs an n8n CLI command on this user folder; resolves with stdout. */
	cli(args: string[], timeoutMs?: number): Promise<{ code: number; stdout: string; stderr: string }>;
	cleanup(): void;
}

/** Kills a process group started with `detached: true`; waits (bounded) for exit. */
export async function killTree(child: ChildProcess | undefined, graceMs = 8000): Promise<void> {
	if (!child || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((res) => child.once('exit', () => res()));
	const signal = (sig: NodeJS.Signals) => {
		try {
			process.kill(-child.pid!, sig);
		} catch {
			// already gone
		}
	};
	signal('SIGTERM');
	const timer = new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), graceMs).unref());
	if ((await Promise.race([exited.then(() => 'exit' as const), timer])) === 'timeout') {
		signal('SIGKILL');
		await Promise.race([exited, new Promise((res) => setTimeout(res, 3000).unref())]);
	}
}

// Process groups started here, killed on exit/signals even if a caller forgets.
const live = new Set<ChildProcess>();
let hooked = false;
function track(child: ChildProcess): void {
	live.add(child);
	child.once('exit', () => live.delete(child));
	if (hooked) return;
	hooked = true;
	process.once('exit', () => {
		for (const c of live) {
			try {
				process.kill(-c.pid!, 'SIGKILL');
			} catch {
				// gone
			}
		}
	});
}

export function spawnGroup(cmd: string, args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string }): ChildProcess {
	const child = spawn(cmd, args, { env: opts.env, cwd: opts.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	track(child);
	return child;
}

interface CreateOptions {
	userFolder?: string;
	port?: number;
	/** Extra environment (e.g. N8N_LOG_LEVEL). */
	env?: Record<string, string>;
	log?: (line: string) => void;
}

export async function createN8n(opts: CreateOptions = {}): Promise<N8nInstance> {
	const userFolder = opts.userFolder ?? mkdtempSync(join(tmpdir(), 'cm-n8n-'));
	const dataDir = join(userFolder, '.n8n');
	mkdirSync(dataDir, { recursive: true });
	const port = opts.port ?? (await freePort());
	const url = `http://127.0.0.1:${port}`;
	const logFile = join(userFolder, 'n8n.log');
	const log = opts.log ?? (() => undefined);
	const baseEnv: Record<string, string> = {
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(port),
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `${url}/`,
		N8N_EDITOR_BASE_URL: `${url}/`,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// Stays offline: no fetch of the verified-package list from api.n8n.io.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		// Nor of the editor's banners (n8n 1.x's editor logs a console error when api.n8n.io is unreachable).
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_RUNNERS_ENABLED: 'true',
		DB_TYPE: 'sqlite',
		GENERIC_TIMEZONE: 'UTC',
		N8N_LOG_LEVEL: 'info',
		...(opts.env ?? {}),
	};
	// Each process gets its own broker port: a CLI command may run beside the server.
	const envFor = async () => node24Env({ ...baseEnv, N8N_RUNNERS_BROKER_PORT: String(await freePort()) });
	let logStream: WriteStream | undefined;

	const inst: N8nInstance = {
		url,
		port,
		userFolder,
		dataDir,
		logFile,
		env: node24Env(baseEnv),
		async start(timeoutMs = 120_000) {
			logStream = createWriteStream(logFile, { flags: 'a' });
			const child = spawnGroup(node24(), [n8nBin(), 'start'], { env: await envFor(), cwd: userFolder });
			inst.process = child;
			child.stdout!.pipe(logStream, { end: false });
			child.stderr!.pipe(logStream, { end: false });
			await waitUntilStarted(child, { name: 'n8n', url, readyLine: READY_LINES.start, logFile, timeoutMs, log });
		},
		async stop() {
			await killTree(inst.process);
			inst.process = undefined;
			logStream?.end();
		},
		setEnv(changes) {
			Object.assign(baseEnv, changes);
			inst.env = node24Env(baseEnv);
		},
		async cli(args, timeoutMs = 120_000) {
			const child = spawnGroup(node24(), [n8nBin(), ...args], { env: await envFor(), cwd: userFolder });
			let stdout = '';
			let stderr = '';
			child.stdout!.on('data', (d) => (stdout += d.toString()));
			child.stderr!.on('data', (d) => (stderr += d.toString()));
			const timer = setTimeout(() => void killTree(child, 1000), timeoutMs);
			const code = await new Promise<number>((res) => child.once('exit', (c) => res(c ?? -1)));
			clearTimeout(timer);
			return { code, stdout, stderr };
		},
		cleanup() {
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
	return inst;
}

/** What each n8n command prints once it is done starting (checked in n8n 1.123.81 and 2.41.1). */
export const READY_LINES = {
	// commands/start.js: after server.start() (the last routes, /types/*.json among them) and the
	// activation of published workflows. /healthz/readiness answers before either.
	start: 'Editor is now accessible via',
	worker: 'n8n worker is now ready',
	webhook: 'Webhook listener waiting for requests.',
};

/**
 * Resolves once the process has printed `readyLine` and answers /healthz/readiness; readiness alone
 * is not enough: n8n 1.x answered it, then 404 on /types/nodes.json (a CI run after a restart).
 */
export async function waitUntilStarted(
	child: ChildProcess,
	o: { name: string; url: string; readyLine: string; logFile: string; timeoutMs: number; log: (l: string) => void },
): Promise<void> {
	let printed = '';
	let seen = false;
	const watch = (d: Buffer) => {
		if (seen) return;
		printed = (printed + d.toString()).slice(-4096);
		seen = printed.includes(o.readyLine);
	};
	child.stdout!.on('data', watch);
	child.stderr!.on('data', watch);
	const t0 = Date.now();
	try {
		while (Date.now() - t0 < o.timeoutMs) {
			if (child.exitCode !== null) throw new Error(`${o.name} exited with ${child.exitCode} during start; see ${o.logFile}`);
			if (seen) {
				try {
					const r = await fetch(`${o.url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
					if (r.ok) {
						o.log(`${o.name} ready at ${o.url} after ${((Date.now() - t0) / 1000).toFixed(1)}s`);
						return;
					}
				} catch {
					// not listening yet
				}
			}
			await new Promise((r) => setTimeout(r, 250));
		}
	} finally {
		child.stdout!.off('data', watch);
		child.stderr!.off('data', watch);
	}
	await killTree(child);
	throw new Error(`${o.name} not ready within ${o.timeoutMs / 1000}s (no "${o.readyLine}" and readiness); see ${o.logFile}`);
}
