/**
 * Imports run downward only, and none runs in a circle. Every import counts, type-only ones too (a type
 * import ties the files' meanings together as much as a value import does).
 *
 * The package: a file imports files of its own folder or of a folder in a lower layer of LAYERS, never a
 * higher layer, and never the other folder of its own layer. The tools: dev/ is what scripts/ and test/
 * share, so it imports neither; scripts/ imports nothing of test/, and test/ imports scripts/ only from
 * the scripts' own tests (test/scripts/); no circle among their files either.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..');
const NODES = 'packages/n8n-nodes-content-moderation/nodes/ContentModeration';
const CREDENTIALS = 'packages/n8n-nodes-content-moderation/credentials';

/**
 * The package's layers, top first; each entry a folder of NODES, a file directly in it, or the package's
 * credentials/. The order among the middle folders is what imports what: verdict checks its thresholds with
 * validation; validation checks a Base URL's path segments with transport and builds transport's request
 * bodies; transport sends through the limiter and the retry loop and redacts what it reports; the
 * limiter's registry starts from the retry settings. descriptions (parameter lists, which name the limiter's and retry's bounds) and verdict stand
 * beside each other, as do retry and redaction: neither of a pair imports the other.
 */
const LAYERS: string[][] = [
	['ContentModeration.node.ts', 'ContentModerationTrigger.node.ts', 'credentials'],
	['actions', 'trigger'],
	['inbound'],
	['descriptions', 'verdict'],
	['validation'],
	['transport'],
	['limiter'],
	['retry', 'redaction'],
	['helpers'],
];

/**
 * Imports known to run upward, each with what removes it; an entry no longer seen fails the test, so it is
 * deleted once fixed.
 */
const KNOWN_UPWARD: Record<string, string> = {};

const TOOL_FOLDERS = ['dev', 'scripts', 'test'];
const SOURCE = /\.(ts|mts|mjs|js|cjs)$/;
const ALIASES: Record<string, string> = {
	'@package/': 'packages/n8n-nodes-content-moderation/',
	'@test/': 'test/',
	'@dev/': 'dev/',
};

function walk(dir: string): string[] {
	return fs
		.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
		.map((file) => path.posix.join(dir, file.split(path.sep).join('/')))
		.filter((file) => SOURCE.test(file) && !file.split('/').some((part) => part === 'node_modules' || part === 'dist'));
}

/** Every module specifier of a source text: imports, exports, `import type`, `import('…')` types, require. */
function specifiers(text: string): string[] {
	return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The repository path a specifier names, or undefined for a package from node_modules or node's own. */
function resolve(from: string, specifier: string): string | undefined {
	const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
	if (!alias && !specifier.startsWith('.')) return undefined;
	const base = alias ? ALIASES[alias] + specifier.slice(alias.length) : path.posix.join(path.posix.dirname(from), specifier);
	const candidates = [base, ...['.ts', '.mjs', '.js', '/index.ts', '/index.js'].map((end) => base + end)];
	const found = candidates.find((candidate) => fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile());
	if (found === undefined) throw new Error(`${from}: cannot resolve ${specifier}`);
	return found;
}

/** file -> the repository files it imports. */
function importGraph(files: string[]): Map<string, string[]> {
	return new Map(files.map((file) => [file, specifiers(fs.readFileSync(path.join(ROOT, file), 'utf8')).flatMap((s) => resolve(file, s) ?? [])]));
}

/** Each circle of imports, as the files along it; the graph's files only. */
function circles(graph: Map<string, string[]>): string[][] {
	const found: string[][] = [];
	const state = new Map<string, 'open' | 'done'>();
	const trail: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		trail.push(file);
		for (const next of graph.get(file) ?? []) {
			if (!graph.has(next)) continue;
			if (state.get(next) === 'open') found.push([...trail.slice(trail.indexOf(next)), next]);
			else if (state.get(next) === undefined) visit(next);
		}
		trail.pop();
		state.set(file, 'done');
	};
	for (const file of graph.keys()) if (!state.has(file)) visit(file);
	return found;
}

/** A package file's entry in LAYERS: its folder under NODES, or its own name there. */
function unitOf(file: string): string {
	if (file.startsWith(`${CREDENTIALS}/`)) return 'credentials';
	return file.slice(NODES.length + 1).split('/')[0];
}

function layerOf(unit: string): number {
	return LAYERS.findIndex((layer) => layer.includes(unit));
}

/** An import a layer rule forbids, as `from -> to` (paths from NODES), or undefined when allowed. */
function upward(from: string, to: string): string | undefined {
	const name = `${path.posix.relative(NODES, from)} -> ${path.posix.relative(NODES, to)}`;
	if (!to.startsWith(`${NODES}/`) && !to.startsWith(`${CREDENTIALS}/`)) return `${name} (outside the package's sources)`;
	const [a, b] = [unitOf(from), unitOf(to)];
	if (a === b) return undefined;
	return layerOf(a) < layerOf(b) ? undefined : name;
}

/** An import of one tool folder by another that the rules above forbid, as `from -> to`. */
function toolCrossing(from: string, to: string): string | undefined {
	const [a, b] = [from.split('/')[0], to.split('/')[0]];
	const allowed =
		a === b ||
		b === 'packages' ||
		(a !== 'dev' && b === 'dev') ||
		(a === 'test' && b === 'scripts' && from.startsWith('test/scripts/'));
	return allowed ? undefined : `${from} -> ${to}`;
}

const packageFiles = [...walk(NODES), ...walk(CREDENTIALS)];
const packageGraph = importGraph(packageFiles);
const toolGraph = importGraph(TOOL_FOLDERS.flatMap(walk));
const edges = (graph: Map<string, string[]>) => [...graph].flatMap(([from, tos]) => tos.map((to) => [from, to] as const));

describe('package layers', () => {
	it('reads the imports of every package source', () => {
		expect(packageFiles.length).toBeGreaterThan(80);
		expect(edges(packageGraph).length).toBeGreaterThan(250);
		expect(packageGraph.get(`${NODES}/ContentModeration.node.ts`)).toContain(`${NODES}/verdict/description.ts`);
	});

	it('places every package source in LAYERS', () => {
		expect(packageFiles.map(unitOf).filter((unit) => layerOf(unit) === -1)).toEqual([]);
	});

	it('imports from the same folder or a lower layer only', () => {
		const found = edges(packageGraph).flatMap(([from, to]) => upward(from, to) ?? []);
		expect([...new Set(found)].filter((edge) => !(edge in KNOWN_UPWARD))).toEqual([]);
		expect(Object.keys(KNOWN_UPWARD).filter((edge) => !found.includes(edge))).toEqual([]);
	});

	it('has no circle of imports', () => {
		expect(circles(packageGraph).map((circle) => circle.map((file) => path.posix.relative(NODES, file)).join(' -> '))).toEqual([]);
	});
});

describe('tool folders', () => {
	it('reads the imports of dev/, scripts/ and test/', () => {
		expect(edges(toolGraph).filter(([from, to]) => from.startsWith('test/') && to.startsWith('dev/')).length).toBeGreaterThan(50);
	});

	it('share through dev/: scripts/ and test/ do not import each other, and dev/ imports neither', () => {
		expect(edges(toolGraph).flatMap(([from, to]) => toolCrossing(from, to) ?? [])).toEqual([]);
	});

	it('have no circle of imports', () => {
		expect(circles(toolGraph).map((circle) => circle.join(' -> '))).toEqual([]);
	});
});

describe('the rules themselves', () => {
	const at = (file: string) => `${NODES}/${file}`;

	it('reads every kind of import, type-only ones included', () => {
		const text = [
			"import type { A } from './a';",
			"import { type B } from './b';",
			"export type { C } from './c';",
			"export * from './d';",
			"let e: typeof import('./e');",
			"const f = require('./f');",
			"import 'n8n-workflow';",
		].join('\n');
		expect(specifiers(text)).toEqual(['./a', './b', './c', './d', './e', './f', 'n8n-workflow']);
	});

	it('refuses an import up, across a layer and out of the package, and allows one down or within a folder', () => {
		expect(upward(at('helpers/json.ts'), at('actions/operation.ts'))).toBe('helpers/json.ts -> actions/operation.ts');
		expect(upward(at('actions/poll.ts'), at('trigger/webhook.ts'))).toBe('actions/poll.ts -> trigger/webhook.ts');
		expect(upward(at('helpers/json.ts'), 'test/helpers/fixtures.ts')).toMatch(/outside the package/);
		expect(upward(at('actions/poll.ts'), at('helpers/json.ts'))).toBeUndefined();
		expect(upward(at('transport/http.ts'), at('transport/client.ts'))).toBeUndefined();
	});

	it('finds a circle through several files, and none in a chain', () => {
		const graph = new Map([
			['a', ['b']],
			['b', ['c']],
			['c', ['a', 'x']],
		]);
		expect(circles(graph)).toEqual([['a', 'b', 'c', 'a']]);
		expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
	});

	it('lets test/scripts/ alone reach scripts/, and dev/ reach neither', () => {
		expect(toolCrossing('test/scripts/pictures.test.ts', 'scripts/pictures/check.ts')).toBeUndefined();
		expect(toolCrossing('test/docs/markdown-links.test.ts', 'scripts/readme-links.ts')).toBeDefined();
		expect(toolCrossing('scripts/pictures/run.ts', 'test/e2e/browser.ts')).toBeDefined();
		expect(toolCrossing('dev/n8n/stack.ts', 'test/helpers/fixtures.ts')).toBeDefined();
		expect(toolCrossing('test/e2e/run.ts', 'dev/n8n/stack.ts')).toBeUndefined();
	});
});
