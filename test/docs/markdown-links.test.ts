/**
 * Every relative link in the repository's Markdown files resolves: the file exists and, with a `#fragment`,
 * the target Markdown file has a heading with that GitHub anchor.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const SKIP = new Set(['node_modules', '.git', 'dist', 'bench-results']);

function markdownFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		if (SKIP.has(name)) return [];
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return markdownFiles(path);
		return name.endsWith('.md') ? [path] : [];
	});
}

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

function brokenLinks(file: string): string[] {
	const broken: string[] = [];
	for (const [, target] of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
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

const files = markdownFiles(ROOT);

describe('Markdown links', () => {
	it('finds the README and the docs', () => {
		const names = files.map((f) => relative(ROOT, f));
		expect(names).toEqual(expect.arrayContaining(['README.md', 'docs/service-interface.md', 'dev/mock/README.md']));
	});

	it.each(files.map((f) => [relative(ROOT, f), f]))('%s: every relative link resolves', (_name, file) => {
		expect(brokenLinks(file)).toEqual([]);
	});
});
