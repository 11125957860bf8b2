/**
 * parseImage on a 17 MB base64 image in a process whose V8 compiles regexps unoptimized, as a jest worker's
 * does after a few suites (over 1 MB of regexp code compiled, over 16 MB of executable memory). There a
 * quantifier looping over the value takes backtrack stack per character and overflows it.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

// A child process: the state is V8's and never goes back; the jest worker's later suites must not inherit it.
const CHILD = `
const { parseImage } = require(${JSON.stringify(resolve(__dirname, '../../../dev/mock/validation.ts'))});
const keep = [];
const compile = (n, alternatives, subject) => {
	for (let i = 0; i < n; i++) {
		const alts = Array.from({ length: alternatives }, (_, j) => 'w' + n + '_' + i + '_' + j + '[a-z]{2,5}\\\\d');
		const re = new RegExp('(?:' + alts.join('|') + ')+q');
		re.test(subject);
		keep.push(re);
	}
};
compile(2000, 20, 'short'); // bytecode: over 1 MB of regexp code compiled
compile(150, 200, 'x'.repeat(2000)); // native code: over 16 MB executable
const png = Buffer.from('89504e470d0a1a0a', 'hex');
const image = Buffer.concat([png, require('node:crypto').randomBytes(13 * 1024 * 1024)]).toString('base64');
const outcome = (run) => { try { return String(run()); } catch (error) { return error.message; } };
console.log(JSON.stringify({
	loop: outcome(() => new RegExp('^[A-Za-z0-9+/]+$').test(image)),
	parsed: outcome(() => parseImage(image, 'image').format),
	tail: outcome(() => parseImage(image.slice(0, -4) + 'AA=A', 'image').format),
}));
`;

it('parses a 17 MB base64 image where V8 no longer optimizes new regexps', () => {
	const child = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', CHILD], { encoding: 'utf8', timeout: 120_000 });
	expect(child.stderr).toBe('');
	const result = JSON.parse(child.stdout) as Record<string, string>;
	// The child did reach the state: a plain loop over the image overflows there.
	expect(result.loop).toBe('Maximum call stack size exceeded');
	expect(result.parsed).toBe('png');
	expect(result.tail).toBe('image is neither an http(s) URL nor valid padded base64');
});
