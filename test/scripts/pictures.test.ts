/**
 * The package README's pictures (`npm run pictures` makes them): every picture the README names is a file of
 * this repository, at a URL built from `repository.url`, a PNG of npm's README width at twice the pixels and at
 * most 400 KB; every picture the command makes is named in the README, and docs/pictures/ holds nothing else.
 * The command refuses a picture whose labels would be too small to read at npm's width.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { PACKAGE_README, ROOT, packageJson, pictureSources, repositoryPictures, repositoryPictureUrl, repositoryWebUrl } from '../../dev/readmeLinks';
import { PICTURES, PICTURES_DIR } from '../../scripts/pictures/run';
import { labelProblems, MIN_LABEL_PX, pictureProblems, pngSize, readmePx, secretsIn } from '../../scripts/pictures/check';

const readme = readFileSync(PACKAGE_README, 'utf8');
const pkg = packageJson();
const pictures = repositoryPictures(readme);

describe('the package README pictures', () => {
	it('names pictures, each as a raw file of the repository package.json names', () => {
		expect(pictures.length).toBeGreaterThanOrEqual(PICTURES.length);
		expect(pictureSources(readme).filter((source) => !pictures.some((p) => p.url === source))).toEqual([]);
		expect(pictures.filter((p) => p.base !== repositoryWebUrl(pkg) || p.url !== repositoryPictureUrl(pkg, p.path)).map((p) => p.url)).toEqual([]);
	});

	it('names only pictures that exist in the repository', () => {
		expect(pictures.filter((p) => !existsSync(join(ROOT, p.path))).map((p) => p.path)).toEqual([]);
	});

	it('names every picture npm run pictures makes, and docs/pictures/ holds only those', () => {
		const named = pictures.map((p) => relative(ROOT, join(ROOT, p.path)));
		const made = PICTURES.map((name) => relative(ROOT, join(PICTURES_DIR, name)));
		expect(made.filter((path) => !named.includes(path))).toEqual([]);
		expect(readdirSync(PICTURES_DIR).filter((name) => !(PICTURES as readonly string[]).includes(name))).toEqual([]);
	});

	it.each(PICTURES.map((name) => [name]))('%s is a PNG 1760 px wide (880 CSS px at 2x), at most 400 KB', (name) => {
		const png = readFileSync(join(PICTURES_DIR, name));
		expect(pngSize(png).height).toBeGreaterThan(200);
		expect(pictureProblems(name, png)).toEqual([]);
	});
});

describe('npm run pictures checks', () => {
	it('refuses a picture of the wrong size', () => {
		const header = (width: number, height: number) => {
			const png = Buffer.alloc(40);
			png.write('\x89PNG\r\n\x1a\n', 0, 'latin1');
			png.writeUInt32BE(13, 8);
			png.write('IHDR', 12, 'latin1');
			png.writeUInt32BE(width, 16);
			png.writeUInt32BE(height, 20);
			return png;
		};
		expect(pngSize(header(1760, 700))).toEqual({ width: 1760, height: 700 });
		expect(pictureProblems('a.png', header(1760, 700))).toEqual([]);
		expect(pictureProblems('a.png', header(1200, 700))).toEqual(['a.png is 1200 px wide, not 1760']);
		expect(pictureProblems('a.png', Buffer.concat([header(1760, 700), Buffer.alloc(400_000)]))).toEqual([
			'a.png has 400040 bytes, more than 400000',
		]);
		expect(() => pngSize(Buffer.from('GIF89a, not a PNG at all'))).toThrow('not a PNG');
	});

	it(`refuses labels under ${MIN_LABEL_PX} px at npm's 880 px, and a picture without a label it should show`, () => {
		// A label drawn at 16 px in a part of the page 1200 px wide is 11.7 px once npm scales the picture to 880.
		expect(readmePx({ text: 'Safe', px: 16 }, 1200)).toBeCloseTo(11.73, 2);
		expect(readmePx({ text: 'Safe', px: 12 }, 880)).toBe(12);
		const labels = [
			{ text: 'Safe', px: 13 },
			{ text: '1 item', px: 12 },
		];
		expect(labelProblems('a.png', labels, 880, ['Safe', '1 item'])).toEqual([]);
		expect(labelProblems('a.png', labels, 1200, ['Safe'])).toEqual([
			'a.png: "Safe" would be 9.5 px in the README, under 12',
			'a.png: "1 item" would be 8.8 px in the README, under 12',
		]);
		expect(labelProblems('a.png', [{ text: 'Safe', px: 7.5 }], 880, ['Safe', 'Flagged'])).toEqual([
			'a.png shows no label "Flagged"',
			'a.png: "Safe" would be 7.5 px in the README, under 12',
		]);
	});

	it('finds a secret in the page, plain or URL-encoded', () => {
		const secret = 'cb/0123abcd-4e5f6a';
		expect(secretsIn('…/callback?token=cb%2F0123abcd-4e5f6a', [secret, 'key-1'])).toEqual([secret]);
		expect(secretsIn('"token": "key-1"', [secret, 'key-1'])).toEqual(['key-1']);
		expect(secretsIn('/webhook/5c0a/callback', [secret, 'key-1'])).toEqual([]);
	});
});
