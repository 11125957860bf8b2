// Jest for mutation testing (stryker.config.mjs): the package's unit tests only (test/nodes, test/credentials). Left out: the mock's,
// the benchmarks', the package and release checks, the docs' and scripts' suites and the layout rules; none of
// them tests the package's sources, and some start servers or wait in real time.
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	// test/helpers is a root so that jest's related tests follow a test's helpers to the package file they import.
	roots: ['<rootDir>/test/nodes', '<rootDir>/test/credentials', '<rootDir>/test/helpers'],
	testPathIgnorePatterns: [...base.testPathIgnorePatterns, '<rootDir>/test/helpers/'],
	setupFilesAfterEnv: ['<rootDir>/test/mutation/recordCoverage.js'],
	filter: '<rootDir>/test/mutation/filterTestFiles.js',
	// Stryker runs one jest per test-runner process; jest's own workers would only compete for the same cores.
	maxWorkers: 1,
};
