import { randomBytes } from 'node:crypto';

import { LARGE_FIELD_CHARS, encodeLargeJsonBody } from '@package/nodes/ContentModeration/transport/jsonBody';

describe('encodeLargeJsonBody', () => {
	const base64 = randomBytes(Math.ceil((LARGE_FIELD_CHARS * 3) / 4) + 3000).toString('base64');

	it('leaves small bodies to the usual JSON path', () => {
		expect(encodeLargeJsonBody({ image: 'https://img.test/cat.jpg', options: { meta: { a: 1 } } })).toBeUndefined();
	});

	it('encodes a body with a large base64 field to exactly the bytes of JSON.stringify', () => {
		const body = {
			image: base64,
			options: { meta: { note: 'naïve "quoted" \\ text ✓', list: [1, null, true] }, actorId: 'u-1' },
		};
		const out = encodeLargeJsonBody(body);
		expect(Buffer.isBuffer(out)).toBe(true);
		expect(out!.equals(Buffer.from(JSON.stringify(body), 'utf8'))).toBe(true);
	});

	it('handles several large fields, nested ones and one value used twice', () => {
		const other = base64.split('').reverse().join('');
		const body = { a: base64, nested: { b: other, list: [base64] }, c: 'x' };
		const out = encodeLargeJsonBody(body);
		expect(out!.toString('utf8')).toBe(JSON.stringify(body));
	});

	it('keeps large fields that need escaping or are multi-byte on the usual path', () => {
		expect(encodeLargeJsonBody({ text: '"'.repeat(LARGE_FIELD_CHARS) })).toBeUndefined();
		expect(encodeLargeJsonBody({ text: 'é'.repeat(LARGE_FIELD_CHARS) })).toBeUndefined();
	});

	it('is not fooled by a value that looks like its marker', () => {
		const body = { image: base64, meta: '@@cm-large-0@@0@@cm-large-0@@' };
		expect(encodeLargeJsonBody(body)!.toString('utf8')).toBe(JSON.stringify(body));
	});
});
