/** Builds, packs and installs this package into an n8n user folder, as users get it from the UI. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node24Env, PROJECT_ROOT } from './install';

const PACKAGE_NAME = 'n8n-nodes-content-moderation';
export const ACTION_TYPE = `${PACKAGE_NAME}.contentModeration`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.contentModerationTrigger`;
export const CREDENTIAL_TYPE = 'contentModerationApi';

function sh(cmd: string, args: string[], cwd: string, timeoutMs = 300_000): Promise<string> {
	return new Promise((res, rej) => {
		const child = spawn(cmd, args, { cwd, env: node24Env(), stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		child.stdout.on('data', (d) => (out += d.toString()));
		child.stderr.on('data', (d) => (out += d.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('error', rej);
		child.on('exit', (code) => {
			clearTimeout(timer);
			if (code === 0) res(out);
			else rej(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${out.slice(-4000)}`));
		});
	});
}

/** `npm run build` then `npm pack` into a temp folder; returns the tarball path. */
export async function buildAndPack(log: (l: string) => void = () => undefined): Promise<string> {
	log('building the package (npm run build)...');
	await sh('npm', ['run', 'build', '--silent'], PROJECT_ROOT);
	const dir = mkdtempSync(join(tmpdir(), 'cm-pack-'));
	await sh('npm', ['pack', '--silent', '--pack-destination', dir], PROJECT_ROOT);
	const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
	if (!tgz) throw new Error('npm pack produced no tarball');
	log(`packed ${tgz}`);
	return join(dir, tgz);
}

/** Installs the tarball into <userFolder>/.n8n/nodes, peers omitted (n8n provides n8n-workflow). */
export async function installIntoUserFolder(tarball: string, userFolder: string): Promise<void> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
	);
	await sh(
		'npm',
		['install', tarball, '--legacy-peer-deps', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		nodesDir,
	);
}

export function removeTarball(tarball: string): void {
	rmSync(join(tarball, '..'), { recursive: true, force: true });
}
