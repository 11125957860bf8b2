/**
 * A body with a field of many MB (a base64 image) is encoded straight into one Buffer: the field and the
 * Buffer in memory, where the usual path also holds a JSON string of the whole body.
 */
import type { IDataObject } from 'n8n-workflow';

export const LARGE_FIELD_CHARS = 256 * 1024;

/** Printable ASCII without `"` and `\`: needs no JSON escaping and is one byte per character in UTF-8. */
const NO_ESCAPE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The body as UTF-8 JSON bytes when a large field needs no escaping; undefined when the usual path is as good. */
export function encodeLargeJsonBody(body: IDataObject): Buffer | undefined {
	const large: string[] = [];
	// A marker JSON can hold without escaping, unique per call so a value cannot collide with it.
	const tag = `@@cm-large-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}@@`;
	const text = JSON.stringify(body, (_key, value: unknown) => {
		if (typeof value === 'string' && value.length >= LARGE_FIELD_CHARS && NO_ESCAPE.test(value)) {
			large.push(value);
			return `${tag}${large.length - 1}${tag}`;
		}
		return value;
	});
	if (large.length === 0 || text === undefined) return undefined;

	// Split the JSON text around the markers: parts[0] large[0] parts[1] large[1] ... parts[n].
	const parts: string[] = [];
	const order: number[] = [];
	let rest = text;
	for (let i = 0; i < large.length; i++) {
		const start = rest.indexOf(tag);
		const end = rest.indexOf(tag, start + tag.length);
		if (start < 0 || end < 0) return undefined;
		parts.push(rest.slice(0, start));
		order.push(Number(rest.slice(start + tag.length, end)));
		rest = rest.slice(end + tag.length);
	}
	parts.push(rest);

	let size = 0;
	for (const part of parts) size += Buffer.byteLength(part, 'utf8');
	for (const index of order) size += large[index].length;
	const out = Buffer.allocUnsafe(size);
	let offset = 0;
	for (let i = 0; i < parts.length; i++) {
		offset += out.write(parts[i], offset, 'utf8');
		if (i < order.length) offset += out.write(large[order[i]], offset, 'latin1');
	}
	return offset === size ? out : undefined;
}
