import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** tEXt keyword the fixtures use; the analysis reads the text of every tEXt chunk, whatever its keyword. */
const MARKER_KEYWORD = 'Comment';

function chunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'latin1');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
	return Buffer.concat([head, data, crc]);
}

/**
 * A valid 1x1 RGB PNG. With a marker, the marker is stored in a tEXt chunk and the pixel colour depends on
 * it, so two markers give two different images (and hashes).
 */
export function makePng(marker?: string): Buffer {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(1, 0); // width
	ihdr.writeUInt32BE(1, 4); // height
	ihdr[8] = 8; // bit depth
	ihdr[9] = 2; // colour type: RGB
	const seed = marker === undefined ? 0 : crc32(marker);
	// One scanline: filter byte 0, then R, G, B.
	const pixel = Buffer.from([0, seed & 0xff, (seed >>> 8) & 0xff, (seed >>> 16) & 0xff]);
	const chunks = [chunk('IHDR', ihdr)];
	if (marker !== undefined) chunks.push(chunk('tEXt', Buffer.from(`${MARKER_KEYWORD}\0${marker}`, 'latin1')));
	chunks.push(chunk('IDAT', deflateSync(pixel)), chunk('IEND', Buffer.alloc(0)));
	return Buffer.concat([PNG_SIGNATURE, ...chunks]);
}

/** The texts of a PNG's tEXt chunks joined by a space ('' for none or for a non-PNG). */
export function readPngText(bytes: Buffer): string {
	if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return '';
	const texts: string[] = [];
	// Each chunk is at least 12 bytes, so this loop ends after at most length / 12 steps.
	for (let at = 8; at + 12 <= bytes.length; ) {
		const length = bytes.readUInt32BE(at);
		const type = bytes.toString('latin1', at + 4, at + 8);
		const end = at + 12 + length;
		if (end > bytes.length) break;
		if (type === 'tEXt') {
			const data = bytes.subarray(at + 8, at + 8 + length);
			const zero = data.indexOf(0);
			if (zero >= 0) texts.push(data.toString('latin1', zero + 1));
		}
		if (type === 'IEND') break;
		at = end;
	}
	return texts.join(' ');
}
