/**
 * `npm run dev`: the local mock and the pinned n8n of `npm start`, with the package compiled straight into
 * n8n's community-package folder by `tsc --watch` and n8n reloading it on every change (N8N_DEV_RELOAD).
 *
 * Why not `n8n-node dev --external-n8n`: it symlinks the package to `<user folder>/.n8n/custom/node_modules/`
 * (default user folder `~/.n8n-node-cli`), and n8n-core loads `.n8n/custom` under the package name `CUSTOM`,
 * so the types would be `CUSTOM.<node>` and the example workflows (`n8n-nodes-content-moderation.<node>`) would
 * not open.
 * Why compile into the folder rather than symlink it there: n8n's hot reload clears `require.cache` entries
 * under the watched folder's own path, while Node caches a symlinked module under its real path, so a
 * symlinked package would reload its old code.
 */
import { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { node24, node24Env, PROJECT_ROOT } from './install';
import { PACKAGE_NAME } from './package';
import { killTree, spawnGroup } from './server';
import { Stack, StackOptions, startStack } from './stack';

export interface DevLoop {
	stack: Stack;
	/** Where the package is compiled to: <userFolder>/.n8n/nodes/node_modules/<package> */
	target: string;
	stop(): Promise<void>;
}

const TSC = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Icons, output schemas and package.json: what `n8n-node build` copies beside tsc's output. */
function copyStatic(packageDir: string, target: string): void {
	cpSync(join(packageDir, 'package.json'), join(target, 'package.json'));
	const keep = (src: string) => {
		const rel = relative(packageDir, src);
		return !rel.startsWith('node_modules') && !rel.startsWith('dist');
	};
	for (const folder of ['nodes', 'credentials']) {
		cpSync(join(packageDir, folder), join(target, 'dist', folder), {
			recursive: true,
			filter: (src) => keep(src) && (!/\.[a-z]+$/i.test(src) || /\.(svg|png)$/.test(src) || src.includes('__schema__')),
		});
	}
}

function tsc(packageDir: string, target: string, watch: boolean): ChildProcess {
	const args = [TSC, '-p', packageDir, '--outDir', join(target, 'dist')];
	if (watch) args.push('--watch', '--preserveWatchOutput');
	return spawnGroup(node24(), args, { env: node24Env(), cwd: packageDir });
}

/**
 * Starts n8n with the package of `packageDir` compiled into its community-package folder and watched.
 * `opts` are the stack's (mock URL, token, secret, log); the package's compile errors go to `log`.
 */
export async function startDevLoop(packageDir: string, opts: StackOptions): Promise<DevLoop> {
	const log = opts.log ?? (() => undefined);
	let target = '';
	let watcher: ChildProcess | undefined;
	const stack = await startStack({
		...opts,
		n8nEnv: { ...opts.n8nEnv, N8N_DEV_RELOAD: 'true' },
		installPackage: async (userFolder) => {
			target = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
			mkdirSync(target, { recursive: true });
			copyStatic(packageDir, target);
			log(`compiling ${relative(PROJECT_ROOT, packageDir) || packageDir} into n8n's community-package folder...`);
			const first = tsc(packageDir, target, false);
			let out = '';
			first.stdout!.on('data', (d) => (out += d));
			const code = await new Promise<number | null>((res) => first.once('exit', res));
			if (code !== 0) throw new Error(`tsc failed:\n${out.slice(-3000)}`);
			watcher = tsc(packageDir, target, true);
			watcher.stdout!.on('data', (d: Buffer) => {
				for (const line of d.toString().split('\n')) if (line.trim()) log(`tsc: ${line.trim()}`);
			});
		},
	});
	return {
		stack,
		target,
		async stop() {
			await killTree(watcher);
			await stack.stop();
		},
	};
}
