/**
 * Finding secrets anywhere in what a run leaves behind. JSON.stringify is not enough: it calls
 * NodeApiError.toJSON, which drops errorResponse, messages and stack, and it skips non-enumerable
 * properties (an Error's message and stack). This walks every own property instead.
 */

/** Every string reachable from `value`: own properties (non-enumerable and symbol-keyed too), error stacks, buffers as UTF-8. */
export function everyString(value: unknown, skipKeys: readonly string[] = []): string[] {
	const out: string[] = [];
	const seen = new Set<object>();
	const visit = (current: unknown): void => {
		if (typeof current === 'string') {
			out.push(current);
			return;
		}
		if (current === null || typeof current !== 'object' || seen.has(current)) return;
		seen.add(current);
		if (Buffer.isBuffer(current)) {
			out.push(current.toString('utf8'));
			return;
		}
		if (current instanceof Error) {
			out.push(String(current.stack), current.toString());
		}
		if (current instanceof Map || current instanceof Set) {
			for (const entry of current.entries()) visit(entry);
		}
		for (const key of Reflect.ownKeys(current)) {
			if (typeof key === 'string' && skipKeys.includes(key)) continue;
			if (typeof key === 'string') out.push(key);
			const descriptor = Object.getOwnPropertyDescriptor(current, key);
			if (descriptor && 'value' in descriptor) visit(descriptor.value);
		}
	};
	visit(value);
	return out;
}

/** Long enough to be distinctive in a test secret, short enough to catch the part a cut leaves. */
const PREFIX_CHARS = 8;

/**
 * The forms a secret may take in text, written out independently of the code under test, and its
 * first characters (what a cut through the secret leaves).
 */
export function leakForms(secret: string): string[] {
	return [
		secret,
		secret.slice(0, PREFIX_CHARS),
		JSON.stringify(secret).slice(1, -1),
		encodeURIComponent(secret),
		secret.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;'),
		Buffer.from(secret, 'utf8').toString('base64'),
	];
}

/** Where each secret appears in `value`, in any of its forms: [] when nowhere. */
export function findLeaks(value: unknown, secrets: readonly string[], skipKeys: readonly string[] = []): string[] {
	const strings = everyString(value, skipKeys);
	const found: string[] = [];
	for (const secret of secrets) {
		for (const form of leakForms(secret)) {
			const hit = strings.find((text) => text.includes(form));
			if (hit !== undefined) {
				const at = hit.indexOf(form);
				found.push(`${JSON.stringify(form)} in …${hit.slice(Math.max(0, at - 60), at + form.length + 20)}…`);
			}
		}
	}
	return found;
}
