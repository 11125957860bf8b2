/** One-time process setup: n8n-core reads its settings from env and a DI container. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface CoreModules {
	core: typeof import('n8n-core');
	Container: { get<T>(cls: new (...args: never[]) => T): T };
}

let coreSetup: Promise<CoreModules> | undefined;

const tempDirs: string[] = [];

function removeTempDirs(): void {
	for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// Jest evaluates this module once per test file: clean up after that file. Outside jest (a tsx
// script such as the benchmark), clean up when the process exits.
if (typeof afterAll === 'function') afterAll(removeTempDirs);
else process.once('exit', removeTempDirs);

/**
 * n8n-core ships its own copy of @n8n/di; services must come from THAT container, so it is
 * resolved relative to n8n-core rather than from the top-level node_modules.
 */
export function loadCore(): Promise<CoreModules> {
	coreSetup ??= (async () => {
		const root = mkdtempSync(path.join(tmpdir(), 'cm-engine-'));
		// Settings n8n-core reads at construction time; set before anything is instantiated.
		process.env.N8N_USER_FOLDER = root;
		process.env.N8N_ENCRYPTION_KEY ??= 'content-moderation-test-key';
		process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
		process.env.N8N_BINARY_DATA_STORAGE_PATH = path.join(root, 'binaryData');
		process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
		// n8n logs node errors it reports; quiet by default, N8N_LOG_LEVEL=debug shows them.
		process.env.N8N_LOG_LEVEL ??= 'silent';
		tempDirs.push(root);

		const core = (await import('n8n-core')) as typeof import('n8n-core');
		const coreDir = path.dirname(require.resolve('n8n-core'));
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const di = require(require.resolve('@n8n/di', { paths: [coreDir] })) as {
			Container: CoreModules['Container'];
		};
		const binaryData = di.Container.get(core.BinaryDataService);
		await binaryData.init();
		return { core, Container: di.Container };
	})();
	return coreSetup;
}
