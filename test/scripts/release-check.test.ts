/**
 * scripts/release-check.mjs on small fixture packages, through the real `npm pack --dry-run`: a filled-in
 * package passes a release run on its tag; each rule fails with a message naming what is wrong.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const script = path.resolve(__dirname, '../../scripts/release-check.mjs');
const dirs: string[] = [];

const goodPackage = {
	name: 'n8n-nodes-foo',
	version: '1.2.3',
	license: 'MIT',
	homepage: 'https://github.com/acme/n8n-nodes-foo#readme',
	bugs: { url: 'https://github.com/acme/n8n-nodes-foo/issues' },
	repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-foo.git' },
	author: { name: 'Acme', email: 'dev@acme.io' },
	files: ['dist', 'CHANGELOG.md'],
	scripts: {
		build: 'n8n-node build',
		lint: 'n8n-node lint',
		release: 'n8n-node release',
		prepublishOnly: 'n8n-node prerelease',
	},
	n8n: {
		n8nNodesApiVersion: 1,
		nodes: ['dist/nodes/Foo/Foo.node.js'],
		credentials: ['dist/credentials/FooApi.credentials.js'],
	},
	peerDependencies: { 'n8n-workflow': '*' },
	devDependencies: { typescript: '5.9.3' },
};

/** `extra` adds or replaces files; null leaves one out. */
function fixture(pkg: object, extra: Record<string, string | null> = {}): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-release-'));
	dirs.push(dir);
	const files: Record<string, string> = {
		'package.json': JSON.stringify(pkg, null, 2),
		'README.md': '# foo\n',
		'LICENSE.md': 'MIT\n',
		'CHANGELOG.md': '# Changelog\n\n## [1.2.3] - 2026-11-23\n\n- First.\n',
		'dist/nodes/Foo/Foo.node.js': "exports.icon = 'file:foo.svg';\n",
		'dist/nodes/Foo/Foo.node.json': '{"node":"n8n-nodes-foo.foo"}\n',
		'dist/nodes/Foo/foo.svg': '<svg/>\n',
		'dist/credentials/FooApi.credentials.js': "exports.icon = { light: 'file:../nodes/Foo/foo.svg', dark: 'file:fooApi.dark.svg' };\n",
		'dist/credentials/fooApi.dark.svg': '<svg/>\n',
		'src/Foo.node.ts': 'export {};\n',
		...extra,
	};
	for (const [name, text] of Object.entries(files)) {
		if (text === null) continue;
		fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
		fs.writeFileSync(path.join(dir, name), text);
	}
	return dir;
}

function check(dir: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
	const base = { ...process.env };
	for (const name of ['RELEASE', 'GITHUB_REF_NAME', 'GITHUB_REPOSITORY']) delete base[name];
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [script, dir], { env: { ...base, ...env } });
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (out += d));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, out }));
	});
}

const onTag = { RELEASE: '1', GITHUB_REF_NAME: 'v1.2.3', GITHUB_REPOSITORY: 'acme/n8n-nodes-foo' };
const placeholderPackage = {
	...goodPackage,
	homepage: 'https://github.com/CHANGE-ME/n8n-nodes-foo#readme',
	bugs: { url: 'https://github.com/CHANGE-ME/n8n-nodes-foo/issues' },
	repository: { type: 'git', url: 'git+https://github.com/CHANGE-ME/n8n-nodes-foo.git' },
	author: { name: 'CHANGE-ME', email: 'change-me@example.invalid' },
};

const good = { repo: 'https://github.com/acme/n8n-nodes-foo' };
const placeholder = { repo: 'https://github.com/CHANGE-ME/n8n-nodes-foo', raw: 'https://raw.githubusercontent.com/CHANGE-ME/n8n-nodes-foo' };

function unreleasedFixture(): string {
	return fixture(goodPackage, {
		'README.md':
			`# foo\n\n[docs](${good.repo}/blob/HEAD/docs/a.md) [old](${good.repo}/tree/v1.2.2/examples)\n` +
			`![a](https://raw.githubusercontent.com/acme/n8n-nodes-foo/HEAD/a.png) [n8n](https://github.com/n8n-io/n8n/blob/HEAD/x.md)\n` +
			`[ok](${good.repo}/blob/v1.2.3/docs/a.md) [n8n pinned](https://github.com/n8n-io/n8n/blob/n8n@2.41.1/x.md)\n\n- 1.2.3 (not yet published)\n`,
		'CHANGELOG.md': '# Changelog\n\n## [1.2.3] - not yet published\n\n- First.\n',
	});
}

afterAll(() => {
	for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

// The cases run concurrently: each is one `npm pack` (about a second).
const runs = {
	good: () => check(fixture(goodPackage), onTag),
	placeholdersDaily: () => check(fixture(placeholderPackage)),
	placeholdersRelease: () => check(fixture(placeholderPackage), { RELEASE: '1' }),
	// A filled-in package.json, and a README whose one link is right and whose picture still names the placeholder.
	readmePicture: () =>
		check(
			fixture(goodPackage, {
				'README.md': `# foo\n\n[docs](${good.repo}/blob/v1.2.3/docs/a.md)\n\n![The node](${placeholder.raw}/v1.2.3/docs/pictures/a.png)\n`,
			}),
			onTag,
		),
	readmeDaily: () =>
		check(
			fixture(placeholderPackage, {
				'README.md': `# foo\n\n[docs](${placeholder.repo}/blob/v1.2.3/docs/a.md)\n\n<img src="${placeholder.raw}/v1.2.3/a.png">\n![b](${placeholder.raw}/v1.2.3/b.png)\n`,
			}),
		),
	// The release's own page: URLs at HEAD (another repository's too) or at an older tag, and "not yet published".
	unreleasedDaily: () => check(unreleasedFixture()),
	unreleasedRelease: () => check(unreleasedFixture(), onTag),
	noChangelogShipped: () => check(fixture({ ...goodPackage, files: ['dist'] })),
	extraFiles: () =>
		check(
			fixture(
				{ ...goodPackage, files: ['dist', 'test'] },
				{ 'test/foo.test.js': '', 'dist/nodes/Foo/Foo.node.js.map': '{}', 'dist/nodes/Foo/Foo.node.d.ts': '' },
			),
		),
	noCodexNorIcon: () => check(fixture(goodPackage, { 'dist/nodes/Foo/Foo.node.json': null, 'dist/credentials/fooApi.dark.svg': null })),
	wrongTagAndRepo: () =>
		check(fixture(goodPackage), { RELEASE: '1', GITHUB_REF_NAME: 'v1.2.4', GITHUB_REPOSITORY: 'someone/fork' }),
	packageRules: () =>
		check(
			fixture({
				...goodPackage,
				version: '1.3.0',
				dependencies: { lodash: '4.17.21' },
				overrides: { linkedom: '0.18.12' },
				scripts: { build: 'gulp build', lint: 'n8n-node lint', release: 'n8n-node release', postinstall: 'node setup.js' },
				peerDependencies: { 'n8n-workflow': '*', 'n8n-core': '*' },
				n8n: { ...goodPackage.n8n, nodes: ['dist/nodes/Bar/Bar.node.js'] },
				bugs: { url: 'http://example.com/bugs' },
			}),
		),
};
let results: Record<keyof typeof runs, { code: number | null; out: string }>;

beforeAll(async () => {
	const entries = await Promise.all(Object.entries(runs).map(async ([name, run]) => [name, await run()] as const));
	results = Object.fromEntries(entries) as typeof results;
}, 180_000);

describe('release check', () => {
	it('passes a filled-in package in a release run on its own tag and repository', () => {
		expect(results.good.out).not.toContain('FAIL');
		expect(results.good.code).toBe(0);
		expect(results.good.out).toMatch(/n8n-nodes-foo@1\.2\.3, 9 files/);
	});

	it('reports placeholders day to day without failing, and fails on them with RELEASE=1', () => {
		expect(results.placeholdersDaily.code).toBe(0);
		expect(results.placeholdersDaily.out).toContain(
			'placeholders left (they fail only with RELEASE=1): repository.url, bugs.url, homepage, author.name, author.email',
		);
		expect(results.placeholdersRelease.code).toBe(1);
		expect(results.placeholdersRelease.out).toContain(
			'FAIL placeholders left in package.json: repository.url, bugs.url, homepage, author.name, author.email',
		);
	});

	it("reports placeholders in the README's links and pictures day to day, and fails on a picture's with RELEASE=1", () => {
		expect(results.readmeDaily.code).toBe(0);
		expect(results.readmeDaily.out).toContain('author.email, README.md (1 link, 2 pictures)');
		expect(results.readmePicture.code).toBe(1);
		expect(results.readmePicture.out).toContain('FAIL placeholders left in README.md URLs: 1 picture');
		expect(results.readmePicture.out.match(/FAIL/g)).toHaveLength(1);
	});

	it('reports README URLs not at the release tag and "not yet published" day to day, and fails on them with RELEASE=1', () => {
		const refs = 'README.md has 4 repository URLs at HEAD, v1.2.2, not at the release tag v1.2.3';
		const said = ['README.md says "not yet published"', `CHANGELOG.md's heading "## [1.2.3] - not yet published": put the release date`];
		expect(results.unreleasedDaily.code).toBe(0);
		for (const line of [refs, ...said]) expect(results.unreleasedDaily.out).toContain(`left for the release (fails only with RELEASE=1): ${line}`);
		expect(results.unreleasedRelease.code).toBe(1);
		for (const line of [refs, ...said]) expect(results.unreleasedRelease.out).toContain(`FAIL ${line}`);
		expect(results.unreleasedRelease.out.match(/FAIL/g)).toHaveLength(3);
		expect(results.good.out).not.toContain('left for the release');
	});

	it('fails when the changelog is not in the tarball', () => {
		expect(results.noChangelogShipped.code).toBe(1);
		expect(results.noChangelogShipped.out).toContain('FAIL tarball lacks CHANGELOG.md');
		expect(results.noChangelogShipped.out.match(/FAIL/g)).toHaveLength(1);
	});

	it('fails on files users do not need: tests, source maps, type declarations', () => {
		expect(results.extraFiles.code).toBe(1);
		for (const file of ['test/foo.test.js', 'dist/nodes/Foo/Foo.node.js.map', 'dist/nodes/Foo/Foo.node.d.ts']) {
			expect(results.extraFiles.out).toContain(`FAIL tarball holds ${file}:`);
		}
		expect(results.good.out).not.toContain('src/Foo.node.ts');
	});

	it("fails when a node's codex file or an icon a description names is not in the tarball", () => {
		const { code, out } = results.noCodexNorIcon;
		expect(code).toBe(1);
		expect(out).toContain(
			"FAIL tarball lacks dist/nodes/Foo/Foo.node.json, the codex file of dist/nodes/Foo/Foo.node.js (is it in tsconfig.json's include?)",
		);
		expect(out).toContain(
			'FAIL tarball lacks dist/credentials/fooApi.dark.svg, the icon file:fooApi.dark.svg of dist/credentials/FooApi.credentials.js',
		);
		expect(out.match(/FAIL/g)).toHaveLength(2);
	});

	it('fails a release run from a tag or repository that does not match package.json', () => {
		expect(results.wrongTagAndRepo.code).toBe(1);
		expect(results.wrongTagAndRepo.out).toContain("the release tag is v1.2.4, package.json's version asks for v1.2.3");
		expect(results.wrongTagAndRepo.out).toContain(
			"the workflow runs in someone/fork, package.json's repository is acme/n8n-nodes-foo",
		);
	});

	it('fails on the package.json rules n8n applies to community packages', () => {
		const { code, out } = results.packageRules;
		expect(code).toBe(1);
		for (const message of [
			'package.json has dependencies',
			'package.json has a "postinstall" script',
			'package.json has "overrides"',
			'peerDependencies must be exactly {"n8n-workflow":"*"}',
			'n8n section names dist/nodes/Bar/Bar.node.js, which is not in the tarball',
			'package.json bugs.url must be an https URL',
			'CHANGELOG.md has no "## 1.3.0" section',
			'package.json scripts.build must be "n8n-node build", is "gulp build"',
			'package.json scripts.prepublishOnly must be "n8n-node prerelease", is undefined',
		]) {
			expect(out).toContain(message);
		}
	});
});
