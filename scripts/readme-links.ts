/**
 * `npx tsx scripts/readme-links.ts --write` rewrites every repository URL in the package README to the
 * package.json's `repository.url` and release tag (dev/readmeLinks.ts says why); without `--write` it only
 * reports whether any differ (test/docs/markdown-links.test.ts fails on them too).
 */
import { readFileSync, writeFileSync } from 'node:fs';

import { PACKAGE_README, packageJson, releaseTag, repositoryWebUrl, rewriteRepositoryLinks } from '../dev/readmeLinks';

const pkg = packageJson();
const text = readFileSync(PACKAGE_README, 'utf8');
const rewritten = rewriteRepositoryLinks(text, pkg);
if (process.argv.includes('--write')) {
	writeFileSync(PACKAGE_README, rewritten);
	console.log(`README links now point at ${repositoryWebUrl(pkg)}, ${releaseTag(pkg)}`);
} else if (rewritten !== text) {
	console.log(`README links differ from ${repositoryWebUrl(pkg)}, ${releaseTag(pkg)}: run with --write`);
	process.exitCode = 1;
} else {
	console.log(`README links point at ${repositoryWebUrl(pkg)}, ${releaseTag(pkg)}`);
}
