// `npm test`: lint, format (prettier, the package's sources), build, scan, release check, type-check and
// every jest suite, then one summary.
// The last line is the plain "N passed, N failed" that CI reads; the exit code is non-zero on any failure.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PACKAGE_DIR = 'packages/n8n-nodes-content-moderation';
const npx = (args) => ['npx', ['--no-install', ...args]];
// [name, command, args, cwd]: lint is n8n's own `n8n-node lint`, run in the package's folder as n8n would.
// Two chains side by side, one per core: each step is one process on one core, and only the scan and the
// release check need the build before them.
const chains = [
	[
		['lint', ...npx(['n8n-node', 'lint']), PACKAGE_DIR],
		['format', ...npx(['prettier', '--check', 'nodes/**/*.ts', 'credentials/**/*.ts']), PACKAGE_DIR],
		['typecheck', ...npx(['tsc', '-p', 'tsconfig.test.json'])],
	],
	[
		['build', 'npm', ['run', '--silent', 'build']],
		['scan', 'npm', ['run', '--silent', 'scan']],
		['release', 'node', ['scripts/release-check.mjs']],
	],
];

/** Runs a step with its output kept, printed whole when it ends, so the two chains' lines do not interleave. */
function step([name, cmd, args, cwd]) {
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (out += d));
		const done = (ok) => {
			console.log(`\n=== ${name}: ${cwd ? `(in ${cwd}) ` : ''}${cmd} ${args.join(' ')}`);
			if (out) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
			resolve({ name, ok, seconds: (Date.now() - started) / 1000 });
		};
		child.on('error', (e) => {
			out += `${e.message}\n`;
			done(false);
		});
		child.on('close', (code) => done(code === 0));
	});
}

const chainResults = await Promise.all(
	chains.map(async (chain) => {
		const results = [];
		for (const s of chain) results.push(await step(s));
		return results;
	}),
);
const results = chains.flat().map(([name]) => chainResults.flat().find((r) => r.name === name));

// jest writes a JSON report so the summary can count test cases, not only suites.
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-jest-')), 'report.json');
const started = Date.now();
console.log('\n=== jest');
const jest = await new Promise((resolve) => {
	const child = spawn('npx', ['--no-install', 'jest', '--json', `--outputFile=${report}`], { stdio: 'inherit' });
	child.on('close', (code) => resolve(code));
	child.on('error', () => resolve(1));
});
let tests = { passed: 0, failed: 0, skipped: 0, suitesFailed: 0 };
if (fs.existsSync(report)) {
	const r = JSON.parse(fs.readFileSync(report, 'utf8'));
	tests = {
		passed: r.numPassedTests,
		failed: r.numFailedTests,
		skipped: r.numPendingTests + r.numTodoTests,
		suitesFailed: r.numFailedTestSuites,
	};
}
const jestOk = jest === 0 && tests.failed === 0 && tests.suitesFailed === 0 && tests.passed > 0;
results.push({ name: 'jest', ok: jestOk, seconds: (Date.now() - started) / 1000 });

console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name.padEnd(10)} ${r.seconds.toFixed(1)} s`);
console.log(`jest: ${tests.passed} tests passed, ${tests.failed} failed, ${tests.skipped} skipped, ${tests.suitesFailed} suites failed`);
const gatesFailed = results.filter((r) => r.name !== 'jest' && !r.ok).length;
const passed = tests.passed + results.filter((r) => r.name !== 'jest' && r.ok).length;
const failed = tests.failed + gatesFailed + (jestOk || tests.failed ? 0 : 1);
console.log(`${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
