// Build: clean dist/, compile with tsc, copy icons (light and dark SVG), codex .node.json files and output
// schemas (__schema__/v<version>/..., the editor's preview of a node's output) next to the compiled nodes
// and credentials, where n8n looks for them.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { src, dest, series } = require('gulp');

const DIST = path.join(__dirname, 'dist');

function clean(done) {
	fs.rmSync(DIST, { recursive: true, force: true });
	done();
}

function compile(done) {
	execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], {
		cwd: __dirname,
		stdio: 'inherit',
	});
	done();
}

function copyAssets() {
	return src(['nodes/**/*.{svg,png}', 'nodes/**/*.node.json', 'nodes/**/__schema__/**/*.json', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(DIST));
}

exports.clean = clean;
exports.build = series(clean, compile, copyAssets);
exports.default = exports.build;
