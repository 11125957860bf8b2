/** Builds, packs and installs this package into an n8n user folder with the README's manual-install lines. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { node24Env, PACKAGE_DIR, PROJECT_ROOT } from './install';

export const PACKAGE_NAME = 'n8n-nodes-content-moderation';
export const ACTION_TYPE = `${PACKAGE_NAME}.contentModeration`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.contentModerationTrigger`;
export const CREDENTIAL_TYPE = 'contentModerationApi';

function sh(cmd: string, args: string[], cwd: string, timeoutMs = 300_000, env: NodeJS.ProcessEnv = {}): Promise<string> {
	return new Promise((res, rej) => {
		const child = spawn(cmd, args, { cwd, env: node24Env(env), stdio: ['ignore', 'pipe', 'pipe'] });
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
	await sh('npm', ['pack', '--silent', '--pack-destination', dir], PACKAGE_DIR);
	const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
	if (!tgz) throw new Error('npm pack produced no tarball');
	log(`packed ${tgz}`);
	return join(dir, tgz);
}

/**
 * A tarball packed once for a whole run (`.ci/run` sets CM_PACKAGE_TARBALL after `npm test` built the
 * package), used instead of building and packing again; undefined when not set.
 */
export function packedTarball(log: (l: string) => void = () => undefined): string | undefined {
	const tarball = process.env.CM_PACKAGE_TARBALL;
	if (!tarball) return undefined;
	if (!existsSync(tarball)) throw new Error(`CM_PACKAGE_TARBALL names ${tarball}, which does not exist`);
	log(`using the package packed for this run: ${basename(tarball)}`);
	return tarball;
}

/**
 * The README's manual-install lines (the bash block of its Installation section that runs `npm install`
 * of this package), with the package name replaced by `tarball`.
 */
export function readmeInstallScript(tarball: string): string {
	const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
	const section = readme.split(/^## /m).find((s) => s.startsWith('Installation\n'));
	const block = section?.match(/```bash\n([\s\S]*?)```/)?.[1];
	const npmLine = new RegExp(`^npm install\\b.*\\s${PACKAGE_NAME}$`, 'm');
	if (!block || !npmLine.test(block)) {
		throw new Error(`README.md: no bash block with \`npm install ... ${PACKAGE_NAME}\` in the Installation section`);
	}
	return block.replace(new RegExp(`(\\s)${PACKAGE_NAME}$`, 'm'), `$1'${tarball}'`);
}

/**
 * Installs the tarball into <userFolder>/.n8n/nodes exactly as the README tells users to (bash, with HOME
 * set to the user folder so that `~/.n8n` is n8n's folder there).
 */
export async function installIntoUserFolder(tarball: string, userFolder: string): Promise<void> {
	await sh('bash', ['-euo', 'pipefail', '-c', readmeInstallScript(tarball)], userFolder, 300_000, {
		HOME: userFolder,
		// Quieter and offline where it changes nothing about what gets installed.
		npm_config_update_notifier: 'false',
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		npm_config_cache: npmCache(),
	});
}

/** The npm cache of the real home, so that the changed HOME does not start a cold cache. */
function npmCache(): string {
	return process.env.npm_config_cache || join(homedir(), '.npm');
}

export function removeTarball(tarball: string): void {
	rmSync(join(tarball, '..'), { recursive: true, force: true });
}

/** The package as users get it: the run's tarball (or one built and packed now) installed with the README's lines. */
export async function installPackage(userFolder: string, log: (l: string) => void = () => undefined): Promise<void> {
	const packed = packedTarball(log);
	const tarball = packed ?? (await buildAndPack(log));
	log("installing the package into the n8n user folder with the README's manual-install lines...");
	await installIntoUserFolder(tarball, userFolder);
	if (!packed) removeTarball(tarball);
}
