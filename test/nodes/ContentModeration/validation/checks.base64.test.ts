/**
 * A multi-MB base64 image is checked where V8 compiles regexps unoptimized: it does so by itself once a
 * process has compiled over 1 MB of regexp code with over 16 MB of executable memory (an n8n server, a
 * long jest worker: test/dev/mock/validation.stack.test.ts reaches it that way). There a quantifier
 * looping over the value takes backtrack stack per character and overflows it.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const CHECKS = resolve(__dirname, '../../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/validation/checks.ts');

// A child process with the V8 flag that puts it in that state at once; the jest worker must not inherit it.
const CHILD = `
const { normalizeBase64 } = require(${JSON.stringify(CHECKS)});
const image = require('node:crypto').randomBytes(6 * 1024 * 1024).toString('base64');
const outcome = (run) => { try { const r = run(); return typeof r === 'string' ? r.length : r.message; } catch (error) { return error.message; } };
console.log(JSON.stringify({
	loop: outcome(() => String(new RegExp('^[A-Za-z0-9+/]+$').test(image))),
	length: image.length,
	normalized: outcome(() => normalizeBase64('data:image/png;base64,' + image, 'Base64 Image')),
	tail: outcome(() => normalizeBase64(image.slice(0, -4) + 'AA=A', 'Base64 Image')),
	url: outcome(() => normalizeBase64(image.slice(0, -4).replace(/\\+/g, '-') + 'AAAA', 'Base64 Image')),
}));
`;

it('accepts a 6 MB base64 image, and refuses a malformed one, where V8 no longer optimizes regexps', () => {
	const args = ['--no-regexp-optimization', '--require', 'tsx/cjs', '-e', CHILD];
	const child = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
	expect(child.stderr).toBe('');
	const result = JSON.parse(child.stdout) as Record<string, string | number>;
	// The child is in that state: a plain loop over the image overflows there.
	expect(result.loop).toBe('Maximum call stack size exceeded');
	expect(result.normalized).toBe(result.length);
	expect(result.tail).toBe('The Base64 Image is not valid base64');
	expect(result.url).toBe('The Base64 Image is not valid base64');
}, 120_000);

// The whitespace strip is a quantifier over the value too: a long run of blanks (pasted or hostile) overflows it.
it('strips a run of 8 million blanks where V8 no longer optimizes regexps', () => {
	const script = `const { normalizeBase64 } = require(${JSON.stringify(CHECKS)});
try { console.log(JSON.stringify(normalizeBase64('AAAA' + ' '.repeat(8e6) + 'AAAA', 'Base64 Image'))); }
catch (error) { console.log(JSON.stringify(error.message)); }`;
	const args = ['--no-regexp-optimization', '--require', 'tsx/cjs', '-e', script];
	const child = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
	expect(JSON.parse(child.stdout)).toBe('AAAAAAAA');
}, 120_000);
