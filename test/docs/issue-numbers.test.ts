/**
 * The documentation is read by users and by developers who never see the project's issue tracker: a line that
 * says "issue 48 asks ..." or "(#48)" tells them nothing. Every Markdown file of the repository (docs/, the
 * READMEs, dev/mock/README.md, the changelog) says what holds and why, never which issue asked for it.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

import { ROOT, markdownFiles } from '../../dev/readmeLinks';

/** "issue 48", "issues 48 and 55", "issue #48", "issue-48", and a bare "#48" (not an HTML entity, not a URL's fragment). */
const ISSUE_NUMBER = /\bissues?[\s-]+#?\d+\b|(?<![\w&/#])#\d+\b/gi;

export function issueNumbers(text: string): string[] {
	return text.split('\n').flatMap((line, i) => [...line.matchAll(ISSUE_NUMBER)].map((m) => `line ${i + 1}: "${m[0]}"`));
}

describe('the documentation names no issue numbers', () => {
	const files = markdownFiles();

	it('reads the READMEs, docs/ and the mock README', () => {
		const names = files.map((f) => relative(ROOT, f));
		expect(names).toEqual(
			expect.arrayContaining(['README.md', 'packages/n8n-nodes-content-moderation/README.md', 'dev/mock/README.md', 'docs/performance.md', 'docs/testing.md']),
		);
	});

	it.each(files.map((f) => [relative(ROOT, f), f]))('%s', (_name, file) => {
		expect(issueNumbers(readFileSync(file, 'utf8'))).toEqual([]);
	});

	it('finds the forms an issue number takes, and not what only looks like one', () => {
		expect(issueNumbers('as issue 48 asks\nIssues 48 and 55; see issue #7, issue-12\nfixed in #48.')).toEqual([
			'line 1: "issue 48"',
			'line 2: "Issues 48"',
			'line 2: "issue #7"',
			'line 2: "issue-12"',
			'line 3: "#48"',
		]);
		expect(issueNumbers('[Quick start](#quick-start) · &#39; · page.html#2 · ## 2 headings · 48 issues · an issue 3rd-party')).toEqual([]);
	});
});
