// `npm run mutate:check` (a step of .ci/run): mutation testing of what changed since the committed baseline
// (test/mutation/stryker-incremental.json), failing when a changed file's score falls below its folder's target,
// or below its baseline score where that is lower already. Nothing changed: no Stryker run at all.
// A source file counts as changed when its text differs from the baseline's; a test file likewise, and then the
// source files its tests reached are tested again. The first run of the tests is cut down to the test files that
// reached the changed files in the baseline (MUTATION_TEST_FILES, read by test/mutation/filterTestFiles.js).
// A source file the baseline does not hold (a new file) is listed; named with --only, it is tested, its first run cut
// down to the test files that import it, directly or not (jest's related tests), and it must reach its target.
// `--update`: a check that passes writes its run's results into the baseline (commit it with the change).
// `--record`: writes them even when a file is below its floor (a first measure; each survivor is then killed or
// listed as equivalent in docs/testing.md). `--only <text>[,<text>]`: only the files whose path holds one of the
// texts (a large change measured one folder at a time). `--retest` (with --only): those files are tested anew, their
// baseline results set aside, and judged against their target (a measure the judging rule changed under).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { judges } = createRequire(import.meta.url)('../test/mutation/judges.js');
const BASELINE = path.join(ROOT, 'test/mutation/stryker-incremental.json');
const PACKAGE = 'packages/n8n-nodes-content-moderation';
const SOURCES = [`${PACKAGE}/nodes`, `${PACKAGE}/credentials`];
const TESTS = ['test/nodes', 'test/credentials'];
/** The folders issue-level targets name; every other file must reach GENERAL_TARGET. */
const STRICT = ['inbound', 'trigger', 'verdict', 'validation', 'retry', 'redaction', 'actions/waitForCallback'];
const STRICT_TARGET = 95;
const GENERAL_TARGET = 90;

export function target(file) {
	const inPackage = file.replace(`${PACKAGE}/nodes/ContentModeration/`, '');
	return STRICT.some((folder) => inPackage.startsWith(`${folder}/`)) ? STRICT_TARGET : GENERAL_TARGET;
}

/** Stryker's score: detected over valid mutants, no coverage counted as survived; undefined without valid ones. */
export function score(mutants) {
	const count = (...statuses) => mutants.filter((m) => statuses.includes(m.status)).length;
	const detected = count('Killed', 'Timeout');
	const valid = detected + count('Survived', 'NoCoverage');
	return valid === 0 ? undefined : (100 * detected) / valid;
}

const listTs = (dirs, test) =>
	dirs.flatMap((dir) =>
		fs
			.readdirSync(path.join(ROOT, dir), { recursive: true })
			.map((file) => `${dir}/${String(file).split(path.sep).join('/')}`)
			.filter((file) => file.endsWith('.ts') && test(file)),
	);
const changed = (files, baseline) =>
	files.filter((file) => baseline[file]?.source !== fs.readFileSync(path.join(ROOT, file), 'utf8'));

/** The test files that import these files, directly or through other files (jest's related tests), and may judge them. */
function relatedTests(files) {
	if (files.length === 0) return [];
	const roots = ['test/nodes', 'test/credentials', 'test/helpers', PACKAGE].map((dir) => `<rootDir>/${dir}`);
	const run = spawnSync(
		'npx',
		['--no-install', 'jest', '-c', 'jest.mutation.config.js', '--roots', ...roots, '--listTests', '--findRelatedTests', ...files],
		{ cwd: ROOT, encoding: 'utf8' },
	);
	if (run.status !== 0) throw new Error(`jest --listTests ended with exit code ${run.status}: ${run.stderr}`);
	return run.stdout
		.split('\n')
		.filter(Boolean)
		.map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
		.filter((test) => files.some((file) => judges(ROOT, test, file)));
}

/** A report's test id -> the test file that holds it. */
function testFilesById(report) {
	const fileOf = new Map();
	for (const [file, { tests }] of Object.entries(report.testFiles ?? {})) for (const test of tests) fileOf.set(test.id, file);
	return fileOf;
}

function main(update, only, record, retest = false) {
	const started = Date.now();
	if (!fs.existsSync(BASELINE)) throw new Error(`No baseline at ${BASELINE}: run npm run mutate once and commit it.`);
	const baseline = JSON.parse(fs.readFileSync(BASELINE, 'utf8'));
	const testFileOf = testFilesById(baseline);
	const reachedBy = (sourceFile) =>
		new Set(
			// killedBy too: a static mutant (module code) lists no coverage per test, only the test that killed it.
			(baseline.files[sourceFile]?.mutants ?? []).flatMap((m) =>
				[...(m.coveredBy ?? []), ...(m.killedBy ?? [])].map((id) => testFileOf.get(id)),
			),
		);

	const inScope = (file) => only === undefined || only.some((text) => file.includes(text));
	const sources = listTs(SOURCES, inScope);
	if (sources.length === 0) throw new Error(`--only ${only.join(',')}: no source file's path holds it`);
	if (retest && only === undefined) throw new Error('--retest needs --only: name the files to test anew');
	const setAside = retest ? sources.filter((file) => baseline.files[file] !== undefined) : [];
	const previous = new Map(setAside.map((file) => [file, baseline.files[file]]));
	for (const file of setAside) delete baseline.files[file];
	const unmeasured = sources.filter((file) => baseline.files[file] === undefined);
	const changedSources = changed(sources.filter((file) => baseline.files[file] !== undefined), baseline.files);
	const changedTests = changed(listTs(TESTS, (f) => f.endsWith('.test.ts')), baseline.testFiles ?? {});
	// Unmeasured files are measured only when named (--only): a file not measured yet does not fail CI.
	const measuring = only === undefined ? [] : unmeasured;
	if (unmeasured.length > measuring.length)
		console.log(`mutation: ${unmeasured.length} source file(s) not in the baseline, not checked:\n  ${unmeasured.join('\n  ')}`);
	const toMutate = new Set([...changedSources, ...measuring]);
	for (const file of Object.keys(baseline.files))
		if (
			inScope(file) &&
			changedTests.some((test) => reachedBy(file).has(test)) &&
			fs.existsSync(path.join(ROOT, file))
		)
			toMutate.add(file);
	if (toMutate.size === 0) {
		const all = Object.values(baseline.files).flatMap((f) => f.mutants);
		console.log(`mutation: no source file changed since the baseline, nor a test that reaches one (baseline score ${score(all)?.toFixed(2)}%)`);
		return 0;
	}
	const testFiles = new Set(changedTests);
	for (const file of toMutate) for (const test of reachedBy(file)) if (test) testFiles.add(test);
	for (const test of relatedTests(measuring)) testFiles.add(test);
	console.log(`mutation: ${toMutate.size} file(s) to test again:\n  ${[...toMutate].join('\n  ')}`);
	console.log(
		testFiles.size > 0
			? `first run limited to ${testFiles.size} test file(s)`
			: 'first run: every test file (none reached these files in the baseline)',
	);

	const incremental = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-mutation-')), 'incremental.json');
	fs.writeFileSync(incremental, JSON.stringify(baseline));
	const run = spawnSync(
		'npx',
		['--no-install', 'stryker', 'run', '--mutate', [...toMutate].join(','), '--incrementalFile', incremental, '--reporters', 'json,clear-text,progress-append-only'],
		{ cwd: ROOT, stdio: 'inherit', env: { ...process.env, MUTATION_TEST_FILES: [...testFiles].join('\n') } },
	);
	if (run.status !== 0) throw new Error(`stryker ended with exit code ${run.status}`);

	const report = JSON.parse(fs.readFileSync(path.join(ROOT, 'reports/mutation/mutation.json'), 'utf8'));
	let failed = 0;
	let recordedBelow = 0;
	for (const file of toMutate) {
		const now = score(report.files[file]?.mutants ?? []);
		// A retested file was measured: it may not fall below its target, nor below a lower score it had.
		const before = score(baseline.files[file]?.mutants ?? previous.get(file)?.mutants ?? []);
		const floor = Math.min(target(file), before ?? 100);
		const ok = now === undefined || now >= floor;
		if (!ok && (before !== undefined || !record)) failed++;
		else if (!ok) recordedBelow++;
		const figure = (value) => (value === undefined ? 'n/a' : `${value.toFixed(2)}%`);
		const old = previous.has(file) ? `, set aside ${figure(score(previous.get(file).mutants))}` : '';
		console.log(`${ok ? 'ok  ' : 'FAIL'} ${file}: ${figure(now)} (baseline ${figure(before)}${old}, must not fall below ${floor.toFixed(2)}%)`);
	}
	const below = recordedBelow > 0 ? ` (${recordedBelow} first measure(s) below target, recorded: kill or list their survivors)` : '';
	console.log(`mutation check: ${failed === 0 ? `passed${below}` : `${failed} file(s) below their floor`} in ${Math.round((Date.now() - started) / 1000)} s`);
	// --record: files measured for the first time are written whatever their score; a measured file may not fall.
	if (failed === 0 && (update || record)) {
		fs.copyFileSync(incremental, BASELINE);
		console.log(`baseline updated: ${path.relative(ROOT, BASELINE)}`);
	}
	return failed === 0 ? 0 : 1;
}

/** `--scores [report]`: the score per folder of a report (default: the baseline), as docs/testing.md lists them. */
function printScores(file) {
	const report = JSON.parse(fs.readFileSync(path.resolve(ROOT, file), 'utf8'));
	const byFolder = new Map();
	for (const [name, { mutants }] of Object.entries(report.files)) {
		const folder = path.posix.dirname(name.replace(`${PACKAGE}/`, '')).replace('nodes/ContentModeration', '') || '.';
		byFolder.set(folder, [...(byFolder.get(folder) ?? []), ...mutants]);
	}
	const all = [...byFolder.values()].flat();
	for (const [folder, mutants] of [...byFolder, ['all', all]].sort()) {
		const count = (status) => mutants.filter((m) => m.status === status).length;
		const counts = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'Ignored'].map(count).join(' | ');
		console.log(`| ${folder} | ${counts} | ${score(mutants)?.toFixed(2) ?? 'n/a'} |`);
	}
}

/**
 * `--stale`: the baseline's detected mutants whose only detecting tests no longer judge them (test/mutation/judges.js:
 * a test that runs the engine or a server counts only for its own file), per file, with the score if none of them
 * were detected. An upper bound: Stryker records only the first test that killed a mutant, so a test that judges it
 * may kill it too. They are tested again on the file's next run (`npx stryker run --force --mutate <file>`).
 * With `--list`, each of them: line:column, mutator and replacement (the list to write own tests from).
 */
function printStale(list) {
	const baseline = JSON.parse(fs.readFileSync(BASELINE, 'utf8'));
	const fileOfTest = testFilesById(baseline);
	let total = 0;
	for (const [file, { mutants }] of Object.entries(baseline.files)) {
		const stale = mutants.filter((m) => {
			if (m.status !== 'Killed' && m.status !== 'Timeout') return false;
			const by = (m.status === 'Killed' && m.killedBy?.length ? m.killedBy : m.coveredBy ?? []).map((id) => fileOfTest.get(id));
			return by.length > 0 && by.every((test) => test === undefined || !judges(ROOT, test, file));
		});
		if (stale.length === 0) continue;
		total += stale.length;
		const without = mutants.map((m) => (stale.includes(m) ? { ...m, status: 'Survived' } : m));
		console.log(`${file}: ${stale.length} (score ${score(mutants).toFixed(2)}%, ${score(without).toFixed(2)}% without them)`);
		if (list) {
			for (const m of stale) {
				const { line, column } = m.location.start;
				console.log(`  ${line}:${column} ${m.mutatorName} -> ${JSON.stringify(m.replacement ?? '')}`);
			}
		}
	}
	console.log(`mutation: ${total} detected mutant(s) were killed first by tests that no longer judge them (their next run decides)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const FLAGS = ['--scores', '--stale', '--list', '--only', '--update', '--record', '--retest'];
	const args = process.argv.slice(2);
	const unknown = args.filter((arg) => arg.startsWith('--') && !FLAGS.includes(arg) && !arg.startsWith('--only='));
	if (unknown.length) throw new Error(`unknown option ${unknown.join(' ')}; known: ${FLAGS.join(' ')}`);
	if (args.includes('--list') && args[0] !== '--stale') throw new Error('--list goes with --stale: --stale --list');
	if (process.argv[2] === '--scores') printScores(process.argv[3] ?? BASELINE);
	else if (process.argv[2] === '--stale') printStale(process.argv.includes('--list'));
	else {
		const at = process.argv.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
		const value = at === -1 ? undefined : process.argv[at].startsWith('--only=') ? process.argv[at].slice(7) : process.argv[at + 1];
		if (at !== -1 && (value === undefined || value === '' || value.startsWith('--')))
			throw new Error('--only needs a text: --only <text>[,<text>] (part of a source path, e.g. /limiter/)');
		process.exitCode = main(
			process.argv.includes('--update'),
			value?.split(',').filter(Boolean),
			process.argv.includes('--record'),
			process.argv.includes('--retest'),
		);
	}
}
