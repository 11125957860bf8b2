/**
 * The package README's pictures (`npm run pictures` makes them): every picture the README names is a file of
 * this repository, at a URL built from `repository.url`, a PNG of about 1200 px and at most 200 KB; every
 * picture the command makes is named in the README, and docs/pictures/ holds nothing else.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { PACKAGE_README, ROOT, packageJson, pictureSources, repositoryPictures, repositoryPictureUrl, repositoryWebUrl } from '../../scripts/readme-links';
import { PICTURES, PICTURES_DIR, pictureProblems, pngSize, secretsIn } from '../../scripts/pictures';

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

	it.each(PICTURES.map((name) => [name]))('%s is a PNG about 1200 px wide, at most 200 KB', (name) => {
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
		expect(pngSize(header(1200, 700))).toEqual({ width: 1200, height: 700 });
		expect(pictureProblems('a.png', header(1200, 700))).toEqual([]);
		expect(pictureProblems('a.png', header(1600, 700))).toEqual(['a.png is 1600 px wide, not about 1200']);
		expect(pictureProblems('a.png', Buffer.concat([header(1200, 700), Buffer.alloc(200_000)]))).toEqual([
			'a.png has 200040 bytes, more than 200000',
		]);
		expect(() => pngSize(Buffer.from('GIF89a, not a PNG at all'))).toThrow('not a PNG');
	});

	it('finds a secret in the page, plain or URL-encoded', () => {
		const secret = 'cb/0123abcd-4e5f6a';
		expect(secretsIn('…/callback?token=cb%2F0123abcd-4e5f6a', [secret, 'key-1'])).toEqual([secret]);
		expect(secretsIn('"token": "key-1"', [secret, 'key-1'])).toEqual(['key-1']);
		expect(secretsIn('/webhook/5c0a/callback', [secret, 'key-1'])).toEqual([]);
	});
});
