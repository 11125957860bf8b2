import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const READY = /^Content Moderation mock service listening on (\S+) \(token: (.*)\)$/;

export interface MockCliProcess {
	url: string;
	token: string;
	child: ChildProcess;
	stdout(): string;
	stderr(): string;
	/** Sends the signal to the CLI and resolves with its exit code (rejects after timeoutMs) */
	stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
}

/**
 * Starts the CLI as its own process and resolves once its ready line is printed (at most readyTimeoutMs).
 *
 * It runs `node --import tsx dev/mock/cli.ts`, one process, not through `npm run`/`npx`: npm passes a
 * SIGTERM to the shell it started, not to tsx, so the service would outlive a signal sent to npm alone (see
 * README.md here); and tsx's own command relays a signal to the node process it starts, then SIGKILLs it
 * (exit 143) when that process has not said within 30 ms that it got it, which a loaded machine exceeds.
 * The process gets its own process group so `stop` can clean up whatever is left.
 */
export function spawnMockCli(args: string[] = [], readyTimeoutMs = 20_000): Promise<MockCliProcess> {
	const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
	const child = spawn(process.execPath, ['--import', 'tsx', 'dev/mock/cli.ts', ...args], {
		cwd: ROOT,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let out = '';
	let err = '';
	child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
	const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

	const killGroup = () => {
		try {
			if (child.pid) process.kill(-child.pid, 'SIGKILL');
		} catch {
			// already gone
		}
	};

	return new Promise((resolvePromise, reject) => {
		const timer = setTimeout(() => {
			killGroup();
			reject(new Error(`mock CLI printed no ready line within ${readyTimeoutMs} ms; stderr: ${err}`));
		}, readyTimeoutMs);
		void exited.then((code) => {
			clearTimeout(timer);
			reject(new Error(`mock CLI exited with ${code} before it was ready; stderr: ${err}`));
		});
		child.stdout!.on('data', () => {
			const match = READY.exec(out.split('\n')[0]);
			if (!out.includes('\n') || !match) return;
			clearTimeout(timer);
			resolvePromise({
				url: match[1],
				token: match[2],
				child,
				stdout: () => out,
				stderr: () => err,
				async stop(signal = 'SIGTERM', timeoutMs = 10_000) {
					if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
					child.kill(signal);
					let guard: NodeJS.Timeout | undefined;
					const timeout = new Promise<never>((_, fail) => {
						guard = setTimeout(() => {
							killGroup();
							fail(new Error(`mock CLI did not exit within ${timeoutMs} ms of ${signal}`));
						}, timeoutMs);
					});
					try {
						return await Promise.race([exited, timeout]);
					} finally {
						clearTimeout(guard);
					}
				},
			});
		});
	});
}
