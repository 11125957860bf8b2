/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// e2e runs in a real n8n server via `npm run test:e2e`, not in jest.
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	// The same aliases as tsconfig.test.json `paths`, so tests import the package without long `../` chains.
	moduleNameMapper: {
		'^@package/(.*)$': '<rootDir>/packages/n8n-nodes-content-moderation/$1',
		'^@test/(.*)$': '<rootDir>/test/$1',
		'^@dev/(.*)$': '<rootDir>/dev/$1',
	},
	// fast-check's bounded runs and replay by seed for every property (test/helpers/propertySettings.ts).
	setupFiles: ['<rootDir>/test/helpers/propertySettings.ts'],
	testTimeout: 30000,
	// Both cores: many tests wait on the mock's latency or n8n's engine, and jest's default on 2 cores is 1 worker.
	maxWorkers: 2,
};
