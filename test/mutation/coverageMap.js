// Which test files reach which mutants, written during Stryker's first run (perTest coverage) and read before
// each mutant's run, so that a mutant runs only the test files whose tests reach it. Without it jest would
// load every test file (and n8n's engine in most of them) for each mutant, only to skip their tests by name.
const fs = require('node:fs');
const path = require('node:path');

/** Inside Stryker's sandbox: one JSON per test file, `{ file, mutants }`. */
const MAP_DIR = path.join(__dirname, '.coverage-map');

/** The test files that reached each mutant, read once the first run has written them. */
let reachedBy;

function filesReaching(mutantId) {
	if (reachedBy === undefined) {
		if (!fs.existsSync(MAP_DIR)) return undefined;
		reachedBy = new Map();
		for (const name of fs.readdirSync(MAP_DIR)) {
			const { file, mutants } = JSON.parse(fs.readFileSync(path.join(MAP_DIR, name), 'utf8'));
			for (const id of mutants) {
				if (!reachedBy.has(id)) reachedBy.set(id, new Set());
				reachedBy.get(id).add(file);
			}
		}
	}
	return reachedBy.get(mutantId);
}

module.exports = { MAP_DIR, filesReaching };
