// The gate n8n applies before verifying a community package: @n8n/scan-community-package's analyzer, run on
// the sources and on the unpacked `npm pack` tarball (its CLI only takes published package names).
// The analyzer passes on zero errors; this script also counts warnings, so that "zero findings" means zero.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import glob from 'fast-glob';
import { ESLint } from 'eslint';
import {
	analyzePackage,
	buildScanConfig,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'n8n-nodes-content-moderation');

async function findings(dir, patterns) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = await eslint.lintFiles(files);
	const count = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
	const text = count ? await (await eslint.loadFormatter('stylish')).format(results) : '';
	return { files: files.length, count, text };
}

async function scan(label, dir, patterns) {
	const official = await analyzePackage(dir, patterns);
	const own = await findings(dir, patterns);
	const ok = official.passed && own.count === 0 && own.files > 0;
	console.log(`scan ${label}: ${own.files} files, ${own.count} findings, analyzer ${official.passed ? 'passed' : 'FAILED'}`);
	if (!official.passed) console.log(official.message, official.details ?? '');
	if (own.text) console.log(own.text);
	return ok;
}

if (!fs.existsSync(path.join(root, 'dist'))) {
	console.error('scan: dist/ is missing, run `npm run build` first');
	process.exit(1);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-scan-'));
try {
	const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', tmp], { cwd: root, encoding: 'utf8' });
	const tarball = path.join(tmp, out.trim().split('\n').pop());
	const unpacked = path.join(tmp, 'package');
	fs.mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);

	const sources = await scan('sources', root, SOURCE_FILE_PATTERNS);
	const packed = await scan('tarball', unpacked, ['**/*.js', 'package.json']);
	process.exit(sources && packed ? 0 : 1);
} finally {
	fs.rmSync(tmp, { recursive: true, force: true });
}
