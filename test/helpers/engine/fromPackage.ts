/**
 * A class of the package for n8n's engine, required by a computed path: jest's map of related tests (and so
 * Stryker's, test/mutation/) then does not count every test that runs the engine as a test of the node and
 * credential files, whose own tests judge them (docs/testing.md, Mutation testing). The `.ts` is named: beside
 * each node sits its codex `<node>.node.json`, which Node's own resolution (tsx, the e2e suites) would pick for an
 * extensionless path before a `.ts` file.
 */
import path from 'node:path';

const PACKAGE = path.resolve(__dirname, '../../../packages/n8n-nodes-content-moderation');

export function fromPackage<T>(file: string, name: string): new () => T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(path.join(PACKAGE, file)) as Record<string, new () => T>)[name];
}
