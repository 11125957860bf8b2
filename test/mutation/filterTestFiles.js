// jest's `filter` under Stryker: a mutant's run loads only the test files that reached it in the first run, and of
// those that run n8n's engine or a server only the mutated file's own (its mirrored path): they cost seconds each and
// wait in real time, and they reach most files only on their way through the node (docs/testing.md). Every file
// runs when the map has no entry for the mutant (slower, and without that rule). The first run itself runs every file, or only
// those MUTATION_TEST_FILES lists (paths from the repository's root, one a line), which `npm run mutate:check` sets.
const fs = require('node:fs');
const path = require('node:path');
const { filesReaching } = require('./coverageMap');
const { judges } = require('./judges');

const ROOT = path.resolve(__dirname, '..', '..');
const PACKAGE = path.join(ROOT, 'packages', 'n8n-nodes-content-moderation');

/** Mutant id -> its source file, read once from the instrumented sources of Stryker's sandbox. */
let fileOfMutant;
function sourceOf(mutant) {
	if (fileOfMutant === undefined) {
		fileOfMutant = new Map();
		for (const name of fs.readdirSync(PACKAGE, { recursive: true })) {
			const file = path.join(PACKAGE, String(name));
			if (!file.endsWith('.ts') || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
			for (const [, id] of fs.readFileSync(file, 'utf8').matchAll(/stryMutAct_9fa48\("(\d+)"\)/g)) fileOfMutant.set(id, file);
		}
	}
	return fileOfMutant.get(mutant);
}

module.exports = async (testPaths) => {
	const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
	let kept = testPaths;
	if (mutant !== undefined) {
		const files = filesReaching(mutant);
		if (files !== undefined) {
			const source = sourceOf(mutant);
			// None left: the mutant survives (no test of its own reaches it), as Stryker counts a run of no tests.
			const filtered = testPaths.filter((file) => files.has(file) && (source === undefined || judges(ROOT, file, source)));
			// MUTATION_TRACE=<file>: when each mutant started, and with which test files (to find a slow tail).
			if (process.env.MUTATION_TRACE)
				fs.appendFileSync(
					process.env.MUTATION_TRACE,
					`${new Date().toISOString()} ${process.pid} ${mutant} ${path.relative(ROOT, source ?? '?')} ${filtered.map((f) => path.basename(f)).join(',')}\n`,
				);
			return { filtered };
		}
	} else if (process.env.MUTATION_TEST_FILES) {
		const listed = new Set(process.env.MUTATION_TEST_FILES.split('\n').filter(Boolean));
		kept = testPaths.filter((file) => listed.has(path.relative(ROOT, file).split(path.sep).join('/')));
	}
	return { filtered: kept.length > 0 ? kept : testPaths };
};
