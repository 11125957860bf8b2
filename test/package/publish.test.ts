/**
 * The package's prepublishOnly (`n8n-node prerelease`, as n8n's starter has it) stops a bare `npm publish`;
 * under `n8n-node release`, which sets RELEASE_MODE, the same publish goes through. Both as dry runs.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const PACKAGE_DIR = path.join(__dirname, '..', '..', 'packages', 'n8n-nodes-content-moderation');

function publishDryRun(env: Record<string, string> = {}) {
	const base = { ...process.env };
	delete base.RELEASE_MODE;
	const run = spawnSync('npm', ['publish', '--dry-run'], { cwd: PACKAGE_DIR, env: { ...base, ...env }, encoding: 'utf8' });
	return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('npm publish', () => {
	it('is refused outside n8n-node release, with the command to use', () => {
		const { code, out } = publishDryRun();
		expect(code).not.toBe(0);
		expect(out).toContain('Run `npm run release` to publish the package');
	});

	it('goes through under n8n-node release (RELEASE_MODE)', () => {
		const { code, out } = publishDryRun({ RELEASE_MODE: 'true' });
		expect(code).toBe(0);
		expect(out).toMatch(/\+ n8n-nodes-content-moderation@\d+\.\d+\.\d+/);
	});
});
