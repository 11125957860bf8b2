// Which test files may judge a source file's mutants (filterTestFiles.js, scripts/mutation-check.mjs): any that
// reaches it, but a test that runs n8n's engine or a server only when it is the file's own, at its mirrored path
// (`test/nodes/<dir>/<base>.*test.ts` for `packages/<package>/nodes/<dir>/<base>.ts`).
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE = path.join('packages', 'n8n-nodes-content-moderation');
/** n8n's engine, or a listening socket: what makes a test slow, and wait in real time. */
const SLOW_MODULES = new Set(['n8n-core', 'node:http', 'http', 'node:net', 'net', 'node:https', 'https']);
const ALIASES = { '@test/': 'test/', '@dev/': 'dev/' };
const IMPORT = /(?:from|import|import\(|require\()\s*'([^']+)'/g;

function resolve(root, from, specifier) {
	const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
	let base;
	if (alias) base = path.join(root, ALIASES[alias], specifier.slice(alias.length));
	else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
	else return undefined;
	if (base.startsWith(path.join(root, PACKAGE))) return undefined; // the package's files start nothing
	return [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts')].find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

function reachesSlow(root, file, seen) {
	if (seen.has(file)) return false;
	seen.add(file);
	for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
		if (SLOW_MODULES.has(specifier)) return true;
		const next = resolve(root, file, specifier);
		if (next !== undefined && reachesSlow(root, next, seen)) return true;
	}
	return false;
}

const slow = new Map();
/** Whether the test file, or a test or dev file it imports (at any depth), imports the engine or a socket. */
function runsEngineOrServer(root, testFile) {
	if (!slow.has(testFile)) slow.set(testFile, reachesSlow(root, testFile, new Set()));
	return slow.get(testFile);
}

/** Paths absolute, or relative to `root`. */
function judges(root, testFile, sourceFile) {
	const test = path.relative(path.join(root, 'test'), path.resolve(root, testFile));
	const source = path.relative(path.join(root, PACKAGE), path.resolve(root, sourceFile)).replace(/\.ts$/, '');
	return test.startsWith(`${source}.`) || !runsEngineOrServer(root, path.resolve(root, testFile));
}

module.exports = { judges };
