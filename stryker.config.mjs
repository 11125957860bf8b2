// Mutation testing of the package's sources (`npm run mutate`; docs/testing.md, "Mutation testing").
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: {
		// The package's unit tests; a mutant runs only the test files that reached it (test/mutation/).
		configFile: 'test/mutation/jest.config.js',
		// jest's related tests would be the files importing the mutated file directly (its haste map holds the
		// test folders alone), missing every test that reaches the file through the node; the coverage map
		// chooses the files instead.
		enableFindRelatedTests: false,
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
