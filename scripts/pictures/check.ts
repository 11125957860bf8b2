/**
 * What stops a README picture from being saved: its size in pixels and bytes, a secret in the page, and
 * labels too small to read where npm shows the picture.
 */

/** npmjs.com shows a README picture at most this wide (CSS px): what a reader sees is the picture scaled to it. */
export const README_WIDTH = 880;
/** Each picture is taken this wide in CSS px (the README width: nothing is scaled down) ... */
export const PICTURE_WIDTH = README_WIDTH;
/** ... at this device scale, so that it stays sharp on a high-density screen. */
export const PICTURE_SCALE = 2;
/** npmjs.com loads every README picture with the page: each at most 200 KB (run.ts reduces its colours first). */
export const PICTURE_MAX_BYTES = 200_000;
/**
 * The smallest label (an output's name, an item count, the output panel's text) a picture may show, in CSS
 * px of font size at README_WIDTH: 12 px, the size n8n's editor draws an output's name at 100 % zoom
 * (computed font size, measured in 2.41.1; an item count is 16 px there, the output panel's JSON 12 px). A
 * reader then sees every label at least as large as n8n shows it, and 12 px is also the smallest text size
 * of GitHub's Primer type scale.
 */
export const MIN_LABEL_PX = 12;

/** Width and height of a PNG, from its header. */
export function pngSize(png: Buffer): { width: number; height: number } {
	if (png.length < 24 || png.toString('latin1', 1, 4) !== 'PNG' || png.toString('latin1', 12, 16) !== 'IHDR') {
		throw new Error('not a PNG');
	}
	return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The secrets a text holds, plain or URL-encoded. */
export function secretsIn(text: string, secrets: string[]): string[] {
	return secrets.filter((s) => [s, encodeURIComponent(s)].some((form) => text.includes(form)));
}

/** What stops a picture from being saved: its size. */
export function pictureProblems(name: string, png: Buffer): string[] {
	const { width } = pngSize(png);
	const expected = PICTURE_WIDTH * PICTURE_SCALE;
	const problems: string[] = [];
	if (Math.abs(width - expected) > 8) problems.push(`${name} is ${width} px wide, not ${expected}`);
	if (png.length > PICTURE_MAX_BYTES) problems.push(`${name} has ${png.length} bytes, more than ${PICTURE_MAX_BYTES}`);
	return problems;
}

/** A label as the page drew it: its text, its font size in CSS px after the canvas zoom. */
export interface DrawnLabel {
	text: string;
	px: number;
}

/** A label's font size where the README shows the picture, whose part of the page was `clipWidth` CSS px wide. */
export function readmePx(label: DrawnLabel, clipWidth: number): number {
	return (label.px * README_WIDTH) / Math.max(clipWidth, README_WIDTH);
}

/**
 * What stops a picture for its labels: one of `expected` is not drawn, or a drawn one would be smaller than
 * MIN_LABEL_PX in the README.
 */
export function labelProblems(name: string, labels: DrawnLabel[], clipWidth: number, expected: string[]): string[] {
	const problems = expected.filter((text) => !labels.some((l) => l.text === text)).map((text) => `${name} shows no label "${text}"`);
	for (const label of labels) {
		const px = readmePx(label, clipWidth);
		if (px < MIN_LABEL_PX) problems.push(`${name}: "${label.text}" would be ${px.toFixed(1)} px in the README, under ${MIN_LABEL_PX}`);
	}
	return problems;
}
