import { crc32, inflateSync } from 'node:zlib';

import {
	makePng,
} from '../../../dev/mock/fixtures';
import { readPngText } from '../../../dev/mock/png';


function chunksOf(png: Buffer): Array<{ type: string; data: Buffer }> {
	const chunks = [];
	for (let at = 8; at < png.length; ) {
		const length = png.readUInt32BE(at);
		const type = png.toString('latin1', at + 4, at + 8);
		const data = png.subarray(at + 8, at + 8 + length);
		expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
		chunks.push({ type, data });
		at += 12 + length;
	}
	return chunks;
}

describe('makePng', () => {
	it('builds a valid 1x1 PNG with correct CRCs and the marker in tEXt', () => {
		const png = makePng('casino night');
		expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
		const chunks = chunksOf(png);
		expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'tEXt', 'IDAT', 'IEND']);
		expect(chunks[0].data.readUInt32BE(0)).toBe(1);
		expect(chunks[0].data.readUInt32BE(4)).toBe(1);
		expect(inflateSync(chunks[2].data)).toHaveLength(4); // filter byte + RGB
		expect(readPngText(png)).toBe('casino night');
	});

	it('differs by marker and has no tEXt without one', () => {
		expect(makePng('a').equals(makePng('b'))).toBe(false);
		expect(chunksOf(makePng()).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
		expect(readPngText(makePng())).toBe('');
		expect(readPngText(Buffer.from('not a png'))).toBe('');
	});
});
