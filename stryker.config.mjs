// Mutation testing of the package's sources (`npm run mutate`; docs/testing.md, "Mutation testing").
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: {
		// The package's unit tests; a mutant runs only the test files that reached it (test/mutation/).
		configFile: 'jest.mutation.config.js',
		// A mutant is tested by the test files that import its file, directly or through a test helper (jest's
		// haste map holds the test folders; the package's files are not followed). Tests that reach a file only
		// through the node and n8n's engine do not count: each file's own tests must kill its mutants.
		enableFindRelatedTests: true,
	},
	coverageAnalysis: 'perTest',
	checkers: ['typescript'],
	tsconfigFile: 'packages/n8n-nodes-content-moderation/tsconfig.json',
	typescriptChecker: { prioritizePerformanceOverAccuracy: true },
	mutate: [
		'packages/n8n-nodes-content-moderation/nodes/**/*.ts',
		'packages/n8n-nodes-content-moderation/credentials/**/*.ts',
	],
	// No mutator is left out; the editor's text in descriptions is ignored instead (test/mutation/editorText.mjs).
	plugins: ['@stryker-mutator/*', './test/mutation/editorText.mjs'],
	ignorers: ['editorText'],
	ignorePatterns: ['.stryker-tmp*', 'dist', 'coverage', 'bench-results', '.n8n-cache', '.tmp', 'reports', 'test/e2e/screenshots'],
	incremental: true,
	incrementalFile: 'test/mutation/stryker-incremental.json',
	reporters: ['clear-text', 'progress', 'html', 'json'],
	htmlReporter: { fileName: 'reports/mutation/index.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	thresholds: { high: 95, low: 90, break: null },
	concurrency: 2,
	// The first run is every unit test in one process, with coverage per test: about 8 minutes on an idle machine.
	dryRunTimeoutMinutes: 40,
	timeoutMS: 5000,
	timeoutFactor: 1.5,
	tempDirName: '.stryker-tmp',
	cleanTempDir: true,
};
