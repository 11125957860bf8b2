/**
 * The package README links to pages of the repository (docs/, examples/, the changelog) and shows its pictures
 * (docs/pictures/) with absolute URLs, because npm publishes the README without them and shows no relative
 * picture. The URLs are built from the package.json's `repository.url`, the one place to change when the
 * repository is named, and at the release's tag, `v` + package.json's `version`, so that a published README
 * shows the pictures and pages of its own release, not whatever the default branch holds later. Here they
 * are built, found and rewritten; `npx tsx scripts/readme-links.ts --write` writes them into the README and
 * test/docs/markdown-links.test.ts fails on any that differ.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');
export const PACKAGE_DIR = join(ROOT, 'packages', 'n8n-nodes-content-moderation');
export const PACKAGE_README = join(PACKAGE_DIR, 'README.md');

interface PackageJson {
	name: string;
	version: string;
	repository: { url: string; directory?: string };
}

export function packageJson(): PackageJson {
	return JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as PackageJson;
}

/** `git+https://github.com/owner/repo.git` → `https://github.com/owner/repo`. */
export function repositoryWebUrl(pkg: PackageJson): string {
	const match = /^(?:git\+)?(https:\/\/github\.com\/[^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(pkg.repository.url);
	if (!match) throw new Error(`repository.url is not a GitHub https URL: ${pkg.repository.url}`);
	return match[1];
}

/** The git tag of the package.json's version: what the README's repository URLs point at. */
export function releaseTag(pkg: PackageJson): string {
	return `v${pkg.version}`;
}

/** The URL of a file or folder of the repository at the release's tag, given its path from the repository's root. */
export function repositoryFileUrl(pkg: PackageJson, pathFromRoot: string, folder = false): string {
	return `${repositoryWebUrl(pkg)}/${folder ? 'tree' : 'blob'}/${releaseTag(pkg)}/${pathFromRoot}`;
}

/**
 * The URL of a picture of the repository at the release's tag: its raw file, which npmjs.com and GitHub show
 * as an image (a `blob` URL is a web page).
 */
export function repositoryPictureUrl(pkg: PackageJson, pathFromRoot: string): string {
	const [owner, repo] = repositoryWebUrl(pkg).split('/').slice(-2);
	return `https://raw.githubusercontent.com/${owner}/${repo}/${releaseTag(pkg)}/${pathFromRoot}`;
}

/** The package folder inside the repository, from `repository.directory`. */
export function packageDirectory(pkg: PackageJson): string {
	return (pkg.repository.directory ?? '').replace(/^\/+|\/+$/g, '');
}

/** Any GitHub repository file URL: owner/repo, blob|tree, ref, path. */
const REPOSITORY_LINK = /https:\/\/github\.com\/([^/\s)]+)\/([^/\s)]+)\/(blob|tree)\/([^/\s)]+)\/([^\s)#]*)/g;

export interface RepositoryLink {
	url: string;
	base: string;
	kind: 'blob' | 'tree';
	ref: string;
	path: string;
	fragment?: string;
}

/** Any raw file of a GitHub repository: owner/repo, ref, path. */
const REPOSITORY_PICTURE = /https:\/\/raw\.githubusercontent\.com\/([^/\s)]+)\/([^/\s)]+)\/([^/\s)]+)\/([^\s)?#"]*)/g;

/** Every picture of a Markdown text: the source of each `![alt](source)`. */
export function pictureSources(text: string): string[] {
	return [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map(([, source]) => source);
}

export interface RepositoryPicture {
	url: string;
	/** The repository's web URL, `https://github.com/<owner>/<repo>`, as in RepositoryLink */
	base: string;
	ref: string;
	path: string;
}

/** The pictures of a Markdown text that are raw files of a GitHub repository. */
export function repositoryPictures(text: string): RepositoryPicture[] {
	const pictures: RepositoryPicture[] = [];
	for (const url of pictureSources(text)) {
		REPOSITORY_PICTURE.lastIndex = 0;
		const parts = REPOSITORY_PICTURE.exec(url);
		if (!parts) continue;
		const [, owner, repo, ref, path] = parts;
		pictures.push({ url, base: `https://github.com/${owner}/${repo}`, ref, path: decodeURIComponent(path) });
	}
	return pictures;
}

/** Every GitHub repository file link of a Markdown text, with its path and fragment. */
export function repositoryLinks(text: string): RepositoryLink[] {
	const links: RepositoryLink[] = [];
	for (const match of text.matchAll(/\]\((https:\/\/github\.com\/[^)\s]+)\)/g)) {
		const url = match[1];
		REPOSITORY_LINK.lastIndex = 0;
		const parts = REPOSITORY_LINK.exec(url);
		if (!parts) continue;
		const [, owner, repo, kind, ref, path] = parts;
		links.push({
			url,
			base: `https://github.com/${owner}/${repo}`,
			kind: kind as 'blob' | 'tree',
			ref,
			path: decodeURIComponent(path),
			fragment: url.includes('#') ? url.slice(url.indexOf('#') + 1) : undefined,
		});
	}
	return links;
}

const NOT_OURS = new Set(['node_modules', '.git', 'dist', 'bench-results', '.stryker-tmp']);

/** The repository's Markdown files under `dir` (the READMEs, docs/, the changelog), not those of dependencies or builds. */
export function markdownFiles(dir: string = ROOT): string[] {
	return readdirSync(dir).flatMap((name) => {
		if (NOT_OURS.has(name)) return [];
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return markdownFiles(path);
		return name.endsWith('.md') ? [path] : [];
	});
}

/** Whether a path from the repository's root is a file or folder of this checkout. */
export function inRepository(pathFromRoot: string): boolean {
	return pathFromRoot !== '' && existsSync(join(ROOT, pathFromRoot));
}

/**
 * The README with every link and picture into this repository (a GitHub file URL, or raw file URL, whose
 * path exists here, whatever repository and ref it names) pointing at `repository.url`'s repository, at the
 * release's tag.
 * Links to other repositories' files that do not exist here are left alone.
 */
export function rewriteRepositoryLinks(text: string, pkg: PackageJson): string {
	const base = repositoryWebUrl(pkg);
	return text
		.replace(REPOSITORY_LINK, (all: string, _owner, _repo, kind: string, _ref, path: string) =>
			inRepository(decodeURIComponent(path)) ? `${base}/${kind}/${releaseTag(pkg)}/${path}` : all,
		)
		.replace(REPOSITORY_PICTURE, (all: string, _owner, _repo, _ref, path: string) =>
			inRepository(decodeURIComponent(path)) ? repositoryPictureUrl(pkg, path) : all,
		);
}
