/**
 * The package README's pictures (`npm run pictures` makes them): every picture the README names is a file of
 * this repository, at a URL built from `repository.url`, a PNG of npm's README width at twice the pixels and at
 * most 200 KB; every picture the command makes is named in the README, and docs/pictures/ holds nothing else;
 * no README shows a picture over 200 KB. The command refuses a picture whose labels would be too small to read
 * at npm's width, and saves each in a palette that keeps its pixels close to the screenshot's.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

import {
	PACKAGE_README,
	ROOT,
	markdownFiles,
	packageJson,
	pictureSources,
	repositoryPictures,
	repositoryPictureUrl,
	repositoryWebUrl,
} from '../../dev/readmeLinks';
import { PICTURES, PICTURES_DIR } from '../../scripts/pictures/run';
import { labelProblems, MIN_LABEL_PX, PICTURE_MAX_BYTES, pictureProblems, pngSize, readmePx, secretsIn } from '../../scripts/pictures/check';
import { optimisePng, pngPixels } from '../../scripts/pictures/optimise';
import { before, fromOutside, node, targets } from '../../scripts/pictures/canvas';
import { routeByVerdictNodes } from '../../scripts/pictures/shots';
import { ACTION_TYPE } from '../../dev/n8n/package';
import { EXAMPLES_DIR, readWorkflow } from '../../dev/n8n/stack';
import * as UPNG from 'upng-js';

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

	it.each(PICTURES.map((name) => [name]))('%s is a PNG 1760 px wide (880 CSS px at 2x), at most 200 KB', (name) => {
		const png = readFileSync(join(PICTURES_DIR, name));
		expect(pngSize(png).height).toBeGreaterThan(200);
		expect(pictureProblems(name, png)).toEqual([]);
	});
});

/** Each picture a README shows that is a file of this checkout (a relative path, or a raw URL of the repository), with its size. */
function readmePictureFiles(readme: string): Array<{ path: string; bytes: number }> {
	const text = readFileSync(readme, 'utf8');
	const relativeSources = pictureSources(text).filter((source) => !/^[a-z][a-z0-9+.-]*:/i.test(source));
	const paths = [
		...repositoryPictures(text).map((p) => join(ROOT, p.path)),
		...relativeSources.map((source) => resolve(dirname(readme), decodeURIComponent(source.split(/[?#]/)[0]))),
	];
	return paths.filter((path) => existsSync(path)).map((path) => ({ path: relative(ROOT, path), bytes: statSync(path).size }));
}

describe('the pictures every README shows', () => {
	const readmes = markdownFiles().filter((file) => basename(file) === 'README.md');

	it('finds the READMEs and the package README\'s pictures', () => {
		expect(readmes.map((file) => relative(ROOT, file))).toEqual(
			expect.arrayContaining(['README.md', 'packages/n8n-nodes-content-moderation/README.md', 'dev/mock/README.md']),
		);
		expect(readmePictureFiles(PACKAGE_README).map((p) => p.path)).toEqual(expect.arrayContaining(PICTURES.map((name) => `docs/pictures/${name}`)));
	});

	it.each(readmes.map((file) => [relative(ROOT, file), file]))(`%s shows no picture over ${PICTURE_MAX_BYTES / 1000} KB`, (_name, readme) => {
		const tooLarge = readmePictureFiles(readme).filter((p) => p.bytes > PICTURE_MAX_BYTES);
		expect(tooLarge.map((p) => `${p.path}: ${p.bytes} bytes`)).toEqual([]);
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
		expect(pictureProblems('a.png', Buffer.concat([header(1760, 700), Buffer.alloc(200_000)]))).toEqual([
			'a.png has 200040 bytes, more than 200000',
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

	it('saves a picture in a palette: no larger, the same size, each pixel close to the screenshot', () => {
		// What a screenshot of the editor holds: a flat background, coloured panels, and text anti-aliased into
		// its background (every shade between the two), 600 colours in all.
		const [width, height] = [880, 200];
		const rgba = new Uint8Array(width * height * 4);
		let seed = 7;
		for (let y = 0; y < height; y++) {
			for (let x = 0; x < width; x++) {
				const i = (y * width + x) * 4;
				const panel = x < 300 ? [255, 247, 237] : x < 600 ? [245, 245, 245] : [232, 240, 254];
				const ink = x < 300 ? [200, 80, 20] : x < 600 ? [40, 40, 40] : [20, 90, 200];
				// Glyphs: strokes 5 px wide in lines 12 px high, each pixel of a stroke at its own coverage.
				seed = (seed * 1103515245 + 12345) % 2 ** 31;
				const coverage = y % 20 > 5 && y % 20 < 18 && x % 9 < 5 ? (seed % 200) / 199 : 0;
				for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(panel[c] + (ink[c] - panel[c]) * coverage);
				rgba[i + 3] = 255;
			}
		}
		const screenshot = Buffer.from(UPNG.encode([rgba.buffer], width, height, 0));
		const saved = optimisePng(screenshot);
		expect(saved.length).toBeLessThan(screenshot.length);
		const after = pngPixels(saved);
		expect([after.width, after.height]).toEqual([width, height]);
		let worst = 0;
		let total = 0;
		for (let i = 0; i < rgba.length; i++) {
			const diff = Math.abs(rgba[i] - after.rgba[i]);
			worst = Math.max(worst, diff);
			total += diff;
		}
		expect(total / rgba.length).toBeLessThan(1.5);
		expect(worst).toBeLessThanOrEqual(12);
		// A picture the palette would not make smaller is kept as it is.
		const white = Buffer.from(UPNG.encode([new Uint8Array(8 * 8 * 4).fill(255).buffer], 8, 8, 0));
		expect(optimisePng(white)).toBe(white);
	});

	it('shows in the first picture where its items come from: no arrow comes into it from outside', () => {
		const wf = readWorkflow(join(EXAMPLES_DIR, '01-moderate-image-url.json'));
		const moderate = node(wf, ACTION_TYPE, 'moderate').name;
		const shown = routeByVerdictNodes(wf);
		expect(fromOutside(wf, shown)).toEqual([]);
		expect(shown).toEqual(expect.arrayContaining(["When clicking 'Execute workflow'", moderate, ...targets(wf, moderate).flat()]));
		// A picture from the node before Image > Moderate on starts at an arrow from Image URLs.
		expect(fromOutside(wf, [before(wf, moderate), moderate, ...targets(wf, moderate).flat()])).toEqual(['Image URLs']);
	});

	it('finds a secret in the page, plain or URL-encoded', () => {
		const secret = 'cb/0123abcd-4e5f6a';
		expect(secretsIn('…/callback?token=cb%2F0123abcd-4e5f6a', [secret, 'key-1'])).toEqual([secret]);
		expect(secretsIn('"token": "key-1"', [secret, 'key-1'])).toEqual(['key-1']);
		expect(secretsIn('/webhook/5c0a/callback', [secret, 'key-1'])).toEqual([]);
	});
});
