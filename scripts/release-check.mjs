// Release check, a step of `npm test`: what `npm publish` would ship (`npm pack --dry-run`) and the package.json
// fields n8n's verification and npm provenance depend on. Placeholders in repository/bugs/homepage/author and in
// the README's link and picture URLs, README URLs not at the release's tag and "not yet published" are only
// reported day to day; in a release run (RELEASE=1, set by .github/workflows/publish.yml) they fail, and
// on GitHub Actions the pushed tag must be v<version> and the repository running the workflow package.json's.
// Usage: node scripts/release-check.mjs [package folder, default: packages/n8n-nodes-content-moderation]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'n8n-nodes-content-moderation'));
const env = process.env;
const release = env.RELEASE === '1';
const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const problems = [];
const placeholders = [];

// What users install: the compiled nodes and credentials with their icons, codex and schema JSON, the
// changelog (`files` names it), plus the files npm always adds. Source maps and .d.ts stay out: n8n loads the .js files named in the `n8n` section,
// runs without --enable-source-maps and imports no types, and the maps point at .ts sources not shipped.
const ALWAYS = ['package.json', 'README.md', 'LICENSE.md', 'CHANGELOG.md'];
const DIST_FILE = /^dist\/.+\.(js|json|svg|png)$/;
const NOT_FOR_USERS = /(^|\/)(tests?|__tests__|__mocks__|mocks?|fixtures?|examples?|screenshots?)(\/|$)|\.(test|spec)\.js$/i;

const [packed] = JSON.parse(
	execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
);
const files = packed.files.map((f) => f.path);
for (const file of files) {
	if (ALWAYS.includes(file)) continue;
	if (!DIST_FILE.test(file) || NOT_FOR_USERS.test(file)) {
		problems.push(`tarball holds ${file}: only dist/ (.js, .json, icons), README.md, LICENSE.md, CHANGELOG.md and package.json ship`);
	}
}
for (const file of ALWAYS) if (!files.includes(file)) problems.push(`tarball lacks ${file}`);

// The n8n section: what n8n loads from the installed package.
const n8nPaths = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
if (!pkg.n8n?.nodes?.length) problems.push('package.json n8n.nodes is empty');
for (const p of n8nPaths) {
	if (!files.includes(p)) problems.push(`n8n section names ${p}, which is not in the tarball (run \`npm run build\`?)`);
}
// n8n-node build copies icons but not the codex files (a node's categories and doc links): tsc emits those only
// because tsconfig.json includes them. Icons: the `file:` paths in the node and credential descriptions.
for (const node of pkg.n8n?.nodes ?? []) {
	const codex = node.replace(/\.js$/, '.json');
	if (!files.includes(codex)) problems.push(`tarball lacks ${codex}, the codex file of ${node} (is it in tsconfig.json's include?)`);
}
for (const p of n8nPaths.filter((p) => files.includes(p))) {
	for (const [, icon] of fs.readFileSync(path.join(dir, p), 'utf8').matchAll(/['"`]file:([^'"`]+)['"`]/g)) {
		const iconPath = path.posix.join(path.posix.dirname(p), icon);
		if (!files.includes(iconPath)) problems.push(`tarball lacks ${iconPath}, the icon file:${icon} of ${p}`);
	}
}

// The rules of @n8n/eslint-plugin-community-nodes (valid-peer-dependencies, no-runtime-dependencies,
// no-forbidden-lifecycle-scripts, no-overrides-field), applied to the package.json that is published.
if (!isDeepStrictEqual(pkg.peerDependencies, { 'n8n-workflow': '*' })) {
	problems.push(`peerDependencies must be exactly {"n8n-workflow":"*"}, is ${JSON.stringify(pkg.peerDependencies)}`);
}
for (const field of ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
	if (pkg[field] && Object.keys(pkg[field]).length) problems.push(`package.json has ${field}: a community package has no runtime dependencies`);
}
const LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];
for (const script of LIFECYCLE) {
	if (pkg.scripts?.[script] !== undefined) problems.push(`package.json has a "${script}" script: no install lifecycle scripts`);
}
for (const field of ['overrides', 'resolutions']) {
	if (pkg[field] !== undefined) problems.push(`package.json has "${field}": not allowed in a community package`);
}

// Built, linted and released with n8n's own tool, as n8n's verification guidelines ask; prepublishOnly stops a
// bare `npm publish` (n8n-node prerelease lets it through only under `n8n-node release`, which sets RELEASE_MODE).
const N8N_NODE_SCRIPTS = { build: 'n8n-node build', lint: 'n8n-node lint', release: 'n8n-node release', prepublishOnly: 'n8n-node prerelease' };
for (const [script, command] of Object.entries(N8N_NODE_SCRIPTS)) {
	if (pkg.scripts?.[script] !== command) problems.push(`package.json scripts.${script} must be "${command}", is ${JSON.stringify(pkg.scripts?.[script])}`);
}

// Metadata. npm provenance names the GitHub repository the workflow ran in; the registry refuses a
// repository.url that differs, and n8n's scanner fetches the attested commit from that public repository.
const PLACEHOLDER = /change-me|\.invalid\b/i;
const repoUrl = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
const repo = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(repoUrl ?? '');
if (!repo) problems.push(`repository.url must be git+https://github.com/<owner>/<repo>.git, is ${JSON.stringify(repoUrl)}`);
const bugsUrl = typeof pkg.bugs === 'string' ? pkg.bugs : pkg.bugs?.url;
const fields = {
	'repository.url': repoUrl,
	'bugs.url': bugsUrl,
	homepage: pkg.homepage,
	'author.name': pkg.author?.name,
	'author.email': pkg.author?.email,
};
for (const [name, value] of Object.entries(fields)) {
	if (typeof value !== 'string' || !value.trim()) problems.push(`package.json ${name} is missing`);
	else if (PLACEHOLDER.test(value)) placeholders.push(name);
}
for (const name of ['bugs.url', 'homepage']) {
	if (fields[name] && !/^https:\/\/\S+$/.test(fields[name])) problems.push(`package.json ${name} must be an https URL`);
}
if (fields['author.email'] && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(fields['author.email'])) {
	problems.push('package.json author.email is not an email address');
}

// The README npm shows links to the repository and shows its pictures by absolute URL (scripts/readme-links.ts
// builds them from repository.url): a placeholder left in one publishes a dead link or a missing picture.
const readmeFile = path.join(dir, 'README.md');
const readme = fs.existsSync(readmeFile) ? fs.readFileSync(readmeFile, 'utf8') : '';
const readmeUrls = { links: 0, pictures: 0 };
for (const [, bang, url] of readme.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)/g)) {
	if (PLACEHOLDER.test(url)) readmeUrls[bang ? 'pictures' : 'links'] += 1;
}
for (const [, url] of readme.matchAll(/<img\s[^>]*src=["']([^"']+)/gi)) if (PLACEHOLDER.test(url)) readmeUrls.pictures += 1;
const readmePlaceholders = Object.entries(readmeUrls)
	.filter(([, count]) => count > 0)
	.map(([kind, count]) => `${count} ${count === 1 ? kind.slice(0, -1) : kind}`);
if (readmePlaceholders.length) placeholders.push(`README.md (${readmePlaceholders.join(', ')})`);

// A published README stays the page of its release: its URLs into the package's repository name the tag
// v<version> (scripts/readme-links.ts writes them), and no URL names HEAD, which shows whatever the default
// branch holds later. Neither the README nor the version's changelog entry says "not yet published".
const tag = `v${pkg.version}`;
const ownRepository = repo ? `${repo[1]}/${repo[2]}`.toLowerCase() : undefined;
const REPOSITORY_URL = /https:\/\/(?:github\.com\/([^/\s)"']+)\/([^/\s)"']+)\/(?:blob|tree)|raw\.githubusercontent\.com\/([^/\s)"']+)\/([^/\s)"']+))\/([^/\s)"']+)\//g;
const untagged = [...readme.matchAll(REPOSITORY_URL)]
	.map(([, owner, name, rawOwner, rawName, ref]) => ({ repository: `${owner ?? rawOwner}/${name ?? rawName}`.toLowerCase(), ref }))
	.filter(({ repository, ref }) => ref === 'HEAD' || (repository === ownRepository && ref !== tag));
const unreleased = [];
if (untagged.length) {
	const refs = [...new Set(untagged.map(({ ref }) => ref))].join(', ');
	unreleased.push(`README.md has ${untagged.length} repository URL${untagged.length === 1 ? '' : 's'} at ${refs}, not at the release tag ${tag} (run \`npx tsx scripts/readme-links.ts --write\`)`);
}
const NOT_PUBLISHED = /not yet published/i;
if (NOT_PUBLISHED.test(readme)) unreleased.push('README.md says "not yet published"');

// Every version has its entry in CHANGELOG.md ("## 0.1.0" or "## [0.1.0]").
const changelog = path.join(dir, 'CHANGELOG.md');
const version = pkg.version.replace(/[.+]/g, '\\$&');
const changelogHeading = fs.existsSync(changelog) ? new RegExp(`^## \\[?v?${version}\\]?(\\s.*)?$`, 'm').exec(fs.readFileSync(changelog, 'utf8')) : null;
if (!changelogHeading) problems.push(`CHANGELOG.md has no "## ${pkg.version}" section`);
else if (NOT_PUBLISHED.test(changelogHeading[0])) unreleased.push(`CHANGELOG.md's heading "${changelogHeading[0]}": put the release date`);

if (release) {
	const inManifest = placeholders.filter((p) => !p.startsWith('README.md'));
	if (inManifest.length) problems.push(`placeholders left in package.json: ${inManifest.join(', ')} (see README, Releasing)`);
	if (readmePlaceholders.length) problems.push(`placeholders left in README.md URLs: ${readmePlaceholders.join(', ')} (see README, Releasing)`);
	problems.push(...unreleased);
	if (pkg.private) problems.push('package.json is private');
	// GITHUB_REF_NAME / GITHUB_REPOSITORY exist only on GitHub Actions; a local RELEASE=1 run skips these two.
	if (env.GITHUB_REF_NAME !== undefined && env.GITHUB_REF_NAME !== `v${pkg.version}`) {
		problems.push(`the release tag is ${env.GITHUB_REF_NAME}, package.json's version asks for v${pkg.version}`);
	}
	if (env.GITHUB_REPOSITORY !== undefined && repo && env.GITHUB_REPOSITORY.toLowerCase() !== `${repo[1]}/${repo[2]}`.toLowerCase()) {
		problems.push(`the workflow runs in ${env.GITHUB_REPOSITORY}, package.json's repository is ${repo[1]}/${repo[2]}`);
	}
}

const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
console.log(
	`release check${release ? ' (RELEASE=1)' : ''}: ${packed.name}@${packed.version}, ${packed.entryCount} files, ` +
		`${kb(packed.unpackedSize)} unpacked, ${kb(packed.size)} packed`,
);
if (!release && placeholders.length) {
	console.log(`  placeholders left (they fail only with RELEASE=1): ${placeholders.join(', ')}`);
}
if (!release) for (const u of unreleased) console.log(`  left for the release (fails only with RELEASE=1): ${u}`);
for (const p of problems) console.log(`  FAIL ${p}`);
process.exit(problems.length ? 1 : 0);
