// jest's `filter` under Stryker: a mutant's run loads only the test files that reached it in the first run.
// Every file runs when the map has no entry for the mutant (slower, never wrong). The first run itself runs
// every file, or only those MUTATION_TEST_FILES lists (paths from the repository's root, one a line), which
// `npm run mutate:check` sets to the files that reached the changed sources in the baseline.
const path = require('node:path');
const { filesReaching } = require('./coverageMap');

const ROOT = path.resolve(__dirname, '..', '..');

module.exports = async (testPaths) => {
	const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
	let kept = testPaths;
	if (mutant !== undefined) {
		const files = filesReaching(mutant);
		if (files !== undefined) kept = testPaths.filter((file) => files.has(file));
	} else if (process.env.MUTATION_TEST_FILES) {
		const listed = new Set(process.env.MUTATION_TEST_FILES.split('\n').filter(Boolean));
		kept = testPaths.filter((file) => listed.has(path.relative(ROOT, file).split(path.sep).join('/')));
	}
	return { filtered: kept.length > 0 ? kept : testPaths };
};
