/**
 * The package's prepublishOnly (`n8n-node prerelease`, as n8n's starter has it) stops a bare `npm publish`;
 * under `n8n-node release`, which sets RELEASE_MODE, the same publish goes through. Both as dry runs. The
 * publish workflow runs the contract with the live service before the release when the secret is set.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse } from 'yaml';

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

interface Step {
	id?: string;
	name?: string;
	if?: string;
	run?: string;
	uses?: string;
	env?: Record<string, string>;
	'continue-on-error'?: unknown;
}

describe('the publish workflow', () => {
	const workflow = parse(readFileSync(path.join(__dirname, '..', '..', '.github', 'workflows', 'publish.yml'), 'utf8'));
	const job = workflow.jobs.publish as { env?: object; steps: Step[] };
	const steps = job.steps;
	const index = (pick: (step: Step) => boolean) => steps.findIndex(pick);
	const contract = steps[index((step) => step.run === 'npm run test:contract')];
	const release = index((step) => /n8n-node release/.test(step.run ?? ''));

	it('runs npm run test:contract after npm test and before n8n-node release, and a failure stops the release', () => {
		expect(contract).toBeDefined();
		const at = steps.indexOf(contract);
		expect(index((step) => step.run === 'npm test')).toBeLessThan(at);
		expect(at).toBeLessThan(release);
		expect(contract['continue-on-error']).toBeUndefined();
		expect(steps[release].if).toBeUndefined();
	});

	it('runs it only when the repository has the secret, which reaches that step alone', () => {
		const probe = steps[index((step) => step.id === 'contract-key')];
		expect(probe.run).toContain("present=${{ secrets.CONTENTMOD_SECRET_KEY != '' }}");
		expect(steps.indexOf(probe)).toBeLessThan(steps.indexOf(contract));
		expect(contract.if).toBe("steps.contract-key.outputs.present == 'true'");
		expect(contract.env?.CONTENTMOD_SECRET_KEY).toBe('${{ secrets.CONTENTMOD_SECRET_KEY }}');
		expect(job.env).toBeUndefined();
		expect(workflow.env).toBeUndefined();
		const others = steps.filter((step) => step !== contract && step !== probe);
		expect(others.filter((step) => JSON.stringify(step).includes('secrets.'))).toEqual([]);
	});

	it('keeps the contract report, masked, also when a line differs', () => {
		const upload = steps[index((step) => (step.uses ?? '').startsWith('actions/upload-artifact@'))];
		expect(upload.if).toBe("always() && steps.contract-key.outputs.present == 'true'");
		expect((upload as { with?: { path?: string } }).with?.path).toBe('reports/contract/report.json');
	});
});
