/**
 * Every link in the repository's Markdown files resolves: a relative link to a file that exists, a link to
 * this repository on GitHub (built from the package's `repository.url`) to a file of this checkout, and with
 * a `#fragment`, to a heading of the target Markdown file. The package README, which npm publishes without
 * the rest of the repository, stays a short user's guide: a quick start near the top, at most 200 lines of
 * text, no relative link or image outside the package, every repository link built from `repository.url`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { readmeInstallScript } from '../../dev/n8n/package';
import {
	PACKAGE_DIR,
	PACKAGE_README,
	ROOT,
	inRepository,
	markdownFiles,
	packageJson,
	repositoryLinks,
	repositoryWebUrl,
	rewriteRepositoryLinks,
} from '../../dev/readmeLinks';

/** The text outside fenced code blocks and inline code, where a `[x](y)` is a link. */
function prose(text: string): string {
	return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. */
function anchors(file: string): Set<string> {
	const headings = prose(readFileSync(file, 'utf8')).match(/^#{1,6} .*$/gm) ?? [];
	return new Set(
		headings.map((h) =>
			h
				.replace(/^#+ /, '')
				.trim()
				.toLowerCase()
				.replace(/[^\p{L}\p{N} _-]/gu, '')
				.replace(/ /g, '-'),
		),
	);
}

const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const README_MAX_LINES = 200;
/** The quick start: its heading within the first QUICK_START_BY lines, at most QUICK_START_MAX lines of its own. */
const QUICK_START_BY = 40;
const QUICK_START_MAX = 15;
const isPicture = (line: string) => /^!\[[^\]]*\]\([^)\s]+\)$/.test(line);
const pkg = packageJson();
const repositoryBase = repositoryWebUrl(pkg);

/** Links into this repository on GitHub (`repository.url`'s repository): the file exists, so does the heading. */
function brokenRepositoryLinks(text: string): string[] {
	const broken: string[] = [];
	for (const link of repositoryLinks(text)) {
		if (link.base !== repositoryBase) continue;
		const target = join(ROOT, link.path);
		if (!inRepository(link.path)) broken.push(`${link.url} (no such file in the repository)`);
		else if ((link.kind === 'tree') !== statSync(target).isDirectory()) broken.push(`${link.url} (blob/tree does not match)`);
		else if (link.fragment && target.endsWith('.md') && !anchors(target).has(link.fragment)) {
			broken.push(`${link.url} (no such heading)`);
		}
	}
	return broken;
}

function brokenLinks(file: string): string[] {
	const text = prose(readFileSync(file, 'utf8'));
	const broken: string[] = brokenRepositoryLinks(text);
	for (const [, target] of text.matchAll(LINK)) {
		if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
		const [path, fragment] = target.split('#');
		const resolved = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
		if (!existsSync(resolved)) broken.push(`${target} (no such file)`);
		else if (fragment && resolved.endsWith('.md') && !anchors(resolved).has(fragment)) {
			broken.push(`${target} (no such heading)`);
		}
	}
	return broken;
}

const files = markdownFiles();

describe('Markdown links', () => {
	it('finds the README and the docs', () => {
		const names = files.map((f) => relative(ROOT, f));
		expect(names).toEqual(expect.arrayContaining(['README.md', 'docs/service-interface.md', 'dev/mock/README.md']));
	});

	it.each(files.map((f) => [relative(ROOT, f), f]))('%s: every link resolves', (_name, file) => {
		expect(brokenLinks(file)).toEqual([]);
	});
});

describe('The package README (published to npm without the repository)', () => {
	const readme = readFileSync(PACKAGE_README, 'utf8');
	const text = prose(readme);

	it(`has at most ${README_MAX_LINES} lines of text (a picture's own line aside)`, () => {
		const text = readme.split('\n').filter((line) => !isPicture(line));
		expect(text.length).toBeLessThanOrEqual(README_MAX_LINES);
	});

	it(`opens with a quick start: its heading within the first ${QUICK_START_BY} lines, at most ${QUICK_START_MAX} lines of text`, () => {
		const lines = readme.split('\n');
		const start = lines.indexOf('## Quick start');
		expect(start).toBeGreaterThanOrEqual(0);
		expect(start).toBeLessThan(QUICK_START_BY);
		const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
		const own = lines.slice(start + 1, end).filter((line) => line.trim() !== '' && !isPicture(line));
		expect(own.length).toBeLessThanOrEqual(QUICK_START_MAX);
		// Install, the credential, Image > Moderate with Route by Verdict, example 01, and what comes next.
		for (const step of [/Settings > Community Nodes/, /Content Moderation API/, /Moderate an image/, /Route by Verdict/, /01-moderate-image-url\.json/, /Content Moderation Trigger/, /Callback > Receive/]) {
			expect(own.join('\n')).toMatch(step);
		}
	});

	it('tells what self-hosters and Cloud users need: Docker, queue mode, n8n Cloud, n8n 3, WEBHOOK_URL, the Callback Secret', () => {
		for (const words of ['**Docker**', '**Queue mode**', '**n8n Cloud**', 'N8N_UNVERIFIED_PACKAGES_ENABLED', 'WEBHOOK_URL', '**What the Callback Secret protects.**', 'activate']) {
			expect(readme).toContain(words);
		}
	});

	it('names the service in its first lines', () => {
		expect(readme.split('\n').slice(0, 5).join('\n')).toMatch(/ContentMod\b[\s\S]*contentmod\.io/);
	});

	it('links nothing by a path outside the package: only its own headings, and images by absolute URL', () => {
		const relativeLinks = [...text.matchAll(LINK)]
			.map(([, target]) => target)
			.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
		expect(relativeLinks).toEqual([]);
		const images = [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map(([, src]) => src);
		expect(images.filter((src) => !src.startsWith('https://'))).toEqual([]);
	});

	it('builds every link into the repository from repository.url (run `npx tsx scripts/readme-links.ts --write`)', () => {
		expect(repositoryLinks(text).length).toBeGreaterThan(0);
		expect(rewriteRepositoryLinks(readme, pkg)).toBe(readme);
		expect(repositoryLinks(text).filter((link) => link.base !== repositoryBase).map((l) => l.url)).toEqual([]);
	});

	it('lists every example workflow of the repository', () => {
		const examples = readdirSync(join(ROOT, 'examples')).filter((name) => name.endsWith('.json'));
		expect(examples.length).toBeGreaterThan(0);
		expect(examples.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
	});

	it('keeps the manual-install lines the e2e tests run (its Installation section)', () => {
		expect(readmeInstallScript('/tmp/package.tgz')).toContain("npm install --legacy-peer-deps '/tmp/package.tgz'");
	});

	it('has the headings the nodes and the credential link to on npmjs.com', () => {
		const codexUrls = ['ContentModeration', 'ContentModerationTrigger'].flatMap((node) => {
			const codex = JSON.parse(readFileSync(join(PACKAGE_DIR, 'nodes', 'ContentModeration', `${node}.node.json`), 'utf8'));
			return (codex.resources?.primaryDocumentation ?? []).map((doc: { url: string }) => doc.url);
		});
		const credential = readFileSync(join(PACKAGE_DIR, 'credentials', 'ContentModerationApi.credentials.ts'), 'utf8');
		const urls = [...codexUrls, ...[...credential.matchAll(/documentationUrl = '([^']+)'/g)].map(([, url]) => url)];
		const npmReadme = `https://www.npmjs.com/package/${pkg.name}`;
		expect(urls.length).toBeGreaterThan(2);
		const headings = anchors(PACKAGE_README);
		const missing = urls
			.filter((url) => url.startsWith(npmReadme))
			.map((url) => url.slice(npmReadme.length).replace(/^#/, ''))
			.filter((fragment) => fragment !== '' && !headings.has(fragment));
		expect(missing).toEqual([]);
	});
});

describe('Found by the service name', () => {
	const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));

	it('package.json: keywords and description name ContentMod (npm search)', () => {
		expect(manifest.keywords).toEqual(expect.arrayContaining(['n8n-community-node-package', 'contentmod']));
		expect(manifest.description).toMatch(/ContentMod/);
	});

	it.each(['ContentModeration', 'ContentModerationTrigger'])('%s codex: aliases for the nodes panel search', (node) => {
		const codex = JSON.parse(readFileSync(join(PACKAGE_DIR, 'nodes', 'ContentModeration', `${node}.node.json`), 'utf8'));
		expect(codex.alias).toEqual(expect.arrayContaining(['ContentMod', 'contentmod', 'moderation']));
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\/www\.npmjs\.com\/package\/n8n-nodes-content-moderation/);
		expect(codex.resources.credentialDocumentation[0].url).toMatch(/#credentials$/);
	});
});
