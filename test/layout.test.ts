/**
 * Every source file with behaviour has its test at the mirrored path (`nodes/X/y.ts` →
 * `test/nodes/X/y.test.ts`; topic files `y.<topic>.test.ts` may sit beside it): a newcomer finds a
 * source's tests by its name. No test or tool file (code in test/, scripts/, dev/) is longer than
 * MAX_TEST_LINES. Neither node reaches the other node's files, directly or through shared code.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const PACKAGE = path.join(ROOT, 'packages/n8n-nodes-content-moderation');
const MAX_TEST_LINES = 300;
const MAX_SOURCE_LINES = 200;
/** All package sources together (blanks and comments included, as `wc -l` counts them). */
const MAX_PACKAGE_LINES = 6_100;

/** Declaration-only files: types, parameter descriptions and lists, nothing to run. */
const DECLARATION_ONLY = new Set([
	'nodes/ContentModeration/actions/operation.ts', // the Operation and NodeRun types
	'nodes/ContentModeration/actions/resources.ts', // the record of resources
	'nodes/ContentModeration/helpers/clock.ts', // Date.now and n8n's sleep; what uses it is tested on a fake clock
]);

function files(dir: string, suffix: string): string[] {
	return fs
		.readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith(suffix) && !file.split(path.sep).includes('node_modules'))
		.map((file) => path.join(dir, file));
}

const sources = ['nodes', 'credentials'].flatMap((dir) =>
	files(path.join(PACKAGE, dir), '.ts').map((file) => path.relative(PACKAGE, file).split(path.sep).join('/')),
);

/** Every package file `file` imports, directly or through the files it imports (relative imports only). */
function importClosure(file: string): Set<string> {
	const seen = new Set<string>();
	const visit = (current: string) => {
		if (seen.has(current)) return;
		seen.add(current);
		const text = fs.readFileSync(path.join(PACKAGE, current), 'utf8');
		for (const [, target] of text.matchAll(/^(?:import|export)\b[^;]*?\sfrom\s+'(\.[^']*)'/gms)) {
			const resolved = path.posix.join(path.posix.dirname(current), target);
			const candidates = [`${resolved}.ts`, `${resolved}/index.ts`];
			const found = candidates.find((candidate) => fs.existsSync(path.join(PACKAGE, candidate)));
			if (found === undefined) throw new Error(`${current}: cannot resolve ${target}`);
			visit(found);
		}
	};
	visit(file);
	return seen;
}

const NODES = 'nodes/ContentModeration';

describe('test layout', () => {
	it('finds the package sources', () => {
		expect(sources.length).toBeGreaterThan(50);
	});

	it('gives every source file with behaviour a test at its mirrored path', () => {
		const missing = sources
			.filter((source) => !DECLARATION_ONLY.has(source))
			.filter((source) => !fs.existsSync(path.join(ROOT, 'test', source.replace(/\.ts$/, '.test.ts'))));
		expect(missing).toEqual([]);
	});

	it('lists only existing files as declaration-only', () => {
		expect([...DECLARATION_ONLY].filter((source) => !sources.includes(source))).toEqual([]);
	});

	it(`keeps every test and tool file (code, not data) within ${MAX_TEST_LINES} lines`, () => {
		const code = ['test', 'scripts', 'dev'].flatMap((dir) => ['.ts', '.mjs', '.js'].flatMap((suffix) => files(path.join(ROOT, dir), suffix)));
		expect(code.filter((file) => file.endsWith('.test.ts')).length).toBeGreaterThan(100);
		const long = code
			.map((file) => ({ file: path.relative(ROOT, file), lines: fs.readFileSync(file, 'utf8').split('\n').length - 1 }))
			.filter(({ lines }) => lines > MAX_TEST_LINES);
		expect(long).toEqual([]);
	});

	it(`keeps every package source within ${MAX_SOURCE_LINES} lines`, () => {
		const long = sources
			.map((file) => ({ file, lines: fs.readFileSync(path.join(PACKAGE, file), 'utf8').split('\n').length - 1 }))
			.filter(({ lines }) => lines > MAX_SOURCE_LINES);
		expect(long).toEqual([]);
	});

	it(`keeps the package sources together within ${MAX_PACKAGE_LINES} lines`, () => {
		const total = sources.reduce((sum, file) => sum + fs.readFileSync(path.join(PACKAGE, file), 'utf8').split('\n').length - 1, 0);
		expect(total).toBeGreaterThan(MAX_PACKAGE_LINES / 2);
		expect(total).toBeLessThanOrEqual(MAX_PACKAGE_LINES);
	});

	it("keeps each node to its own files: neither reaches the other node's files, directly or through shared code", () => {
		const trigger = [...importClosure(`${NODES}/ContentModerationTrigger.node.ts`)];
		const action = [...importClosure(`${NODES}/ContentModeration.node.ts`)];
		expect(trigger.length).toBeGreaterThan(10);
		expect(action.length).toBeGreaterThan(50);
		expect(trigger.filter((file) => file.startsWith(`${NODES}/actions/`) || file === `${NODES}/ContentModeration.node.ts`)).toEqual([]);
		expect(action.filter((file) => file.startsWith(`${NODES}/trigger/`) || file === `${NODES}/ContentModerationTrigger.node.ts`)).toEqual([]);
	});
});
