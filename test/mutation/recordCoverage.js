// setupFilesAfterEnv under Stryker's first run: records which mutants this test file's tests reached, and
// which static mutants (module code, hooks outside a test) ran while it ran (coverageMap.js).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { MAP_DIR } = require('./coverageMap');

const stryker = globalThis.__stryker__;
if (stryker !== undefined && process.env.__STRYKER_ACTIVE_MUTANT__ === undefined) {
	const staticCounts = () => ({ ...(stryker.mutantCoverage?.static ?? {}) });
	const staticBefore = staticCounts();
	const reached = new Set();
	afterEach(() => {
		const perTest = stryker.mutantCoverage?.perTest ?? {};
		for (const id of Object.keys(perTest[expect.getState().currentTestName] ?? {})) reached.add(id);
	});
	afterAll(() => {
		for (const [id, count] of Object.entries(staticCounts())) if (count !== staticBefore[id]) reached.add(id);
		const file = expect.getState().testPath;
		const name = crypto.createHash('sha1').update(file).digest('hex');
		fs.mkdirSync(MAP_DIR, { recursive: true });
		fs.writeFileSync(path.join(MAP_DIR, `${name}.json`), JSON.stringify({ file, mutants: [...reached] }));
	});
}
