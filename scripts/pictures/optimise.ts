/**
 * A README picture in fewer bytes. Chromium saves a screenshot as a 24-bit PNG; a picture of n8n's editor has
 * few colours (flat panels, the canvas, anti-aliased text), so a palette of PICTURE_COLOURS keeps every label
 * as sharp as the screenshot at less than half its size (UPNG's quantizer, pure JavaScript, run by
 * `npm run pictures` on each picture before it is checked and saved).
 */
import * as UPNG from 'upng-js';

/** The palette: text drawn at 12 px keeps its anti-aliasing at 256 colours, and PNG's 8-bit palette holds no more. */
export const PICTURE_COLOURS = 256;

function arrayBuffer(bytes: Buffer): ArrayBuffer {
	return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
}

/** Each pixel as RGBA bytes, whatever the PNG's colour type. */
export function pngPixels(png: Buffer): { width: number; height: number; rgba: Uint8Array } {
	const image = UPNG.decode(arrayBuffer(png));
	return { width: image.width, height: image.height, rgba: new Uint8Array(UPNG.toRGBA8(image)[0]) };
}

/** The picture with its colours reduced to a palette of `colours`; the original when that is not smaller. */
export function optimisePng(png: Buffer, colours: number = PICTURE_COLOURS): Buffer {
	const { width, height, rgba } = pngPixels(png);
	const reduced = Buffer.from(UPNG.encode([arrayBuffer(Buffer.from(rgba))], width, height, colours));
	return reduced.length < png.length ? reduced : png;
}
