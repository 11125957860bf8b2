/**
 * `npm run dev` as a node author uses it: on a copy of the package folder, a changed display name shows in the
 * running n8n's node types (what the editor loads on a page reload) without a restart, and Ctrl-C (SIGINT to
 * the process group, as a terminal sends it) stops tsc, n8n and the mock.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { node24Env, PACKAGE_DIR, PROJECT_ROOT } from '../../../dev/n8n/install';
import { N8nRest, OWNER } from '../../../dev/n8n/rest';
import { spawnGroup } from '../../../dev/n8n/server';
import { sleep, waitFor } from '../../../dev/wait';
import { assert, E2eContext } from '../context';
import { leftOver, processTree } from '../processes';

const NODE_FILE = join('nodes', 'ContentModeration', 'ContentModeration.node.ts');
const TYPE = 'n8n-nodes-content-moderation.contentModeration';

/** The package's sources, inside the repository so that tsc finds its types in the root node_modules. */
function copyPackage(): string {
	mkdirSync(join(PROJECT_ROOT, '.tmp'), { recursive: true });
	const dir = mkdtempSync(join(PROJECT_ROOT, '.tmp', 'dev-loop-'));
	for (const entry of ['nodes', 'credentials', 'package.json', 'tsconfig.json']) {
		cpSync(join(PACKAGE_DIR, entry), join(dir, entry), { recursive: true });
	}
	return dir;
}

async function displayName(rest: N8nRest): Promise<string | undefined> {
	const types: Array<{ name: string; displayName: string }> = await rest.get('/types/nodes.json');
	return types.find((t) => t.name === TYPE)?.displayName;
}

export async function devLoop(ctx: E2eContext): Promise<string> {
	const copy = copyPackage();
	const child = spawnGroup(join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/dev.ts'], {
		cwd: PROJECT_ROOT,
		env: node24Env({ CM_DEV_PACKAGE_DIR: copy }),
	});
	let out = '';
	child.stdout!.on('data', (d) => (out += d));
	child.stderr!.on('data', (d) => (out += d));
	const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
	/** Ctrl-C as a terminal sends it; resolves with the exit code, or 'timeout' after 30 s. */
	const interrupt = () => {
		process.kill(-child.pid!, 'SIGINT');
		return Promise.race([exited, new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), 30_000).unref())]);
	};
	try {
		await waitFor(() => `npm run dev's banner (output so far: ${out.slice(-300)})`, () => (/Press Ctrl-C/.test(out) ? true : undefined), 180_000, 500);
		const url = /n8n editor: +(\S+?)\/?\n/.exec(out)![1];
		const target = /watching: +\S+ -> (\S+)/.exec(out)![1];
		const rest = new N8nRest(url);
		await rest.setupOwnerAndLogin(OWNER);
		const before = await displayName(rest);
		assert(before === 'Content Moderation', `before the edit n8n lists ${JSON.stringify(before)}`);

		const file = join(copy, NODE_FILE);
		const source = readFileSync(file, 'utf8');
		assert(source.includes("displayName: 'Content Moderation',"), `${NODE_FILE} has no displayName line to edit`);
		writeFileSync(file, source.replace("displayName: 'Content Moderation',", "displayName: 'Content Moderation (edited)',"));
		const t0 = Date.now();
		await waitFor('the edited display name in /types/nodes.json', async () => ((await displayName(rest)) === 'Content Moderation (edited)' ? true : undefined), 60_000);
		const reloadS = ((Date.now() - t0) / 1000).toFixed(1);

		// What the dev loop runs now (tsx, n8n and its task runner, tsc --watch; the mock is in tsx's process).
		const started = processTree(child.pid!);
		const code = await interrupt();
		assert(code === 0, `after Ctrl-C npm run dev exited ${code}:\n${out.slice(-1500)}`);
		const paths = [target.split('/.n8n/')[0], copy];
		// A process of n8n's group may end a moment after its leader.
		let left = leftOver(started, paths);
		for (let i = 0; i < 10 && left.length; i++) left = await sleep(500).then(() => leftOver(started, paths));
		assert(left.length === 0, `after Ctrl-C processes of the dev loop are left (of ${started.length} seen running):\n${left.join('\n')}`);
		ctx.log(`dev loop: new display name listed ${reloadS} s after the save; Ctrl-C left no process`);
		return `display name changed in n8n ${reloadS} s after the save, no restart; Ctrl-C exit 0, nothing left`;
	} finally {
		// On failure, the same teardown (it stops the n8n and tsc it started in their own process groups).
		if (child.exitCode === null && (await interrupt()) === 'timeout') process.kill(-child.pid!, 'SIGKILL');
		rmSync(copy, { recursive: true, force: true });
	}
}
