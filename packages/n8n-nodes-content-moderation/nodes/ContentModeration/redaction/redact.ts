/**
 * THE redaction of secrets (the access token, the callback secret, a token found in a callback URL or a
 * callback request). Everything that may reach an error, an output item or a response goes through
 * `redact`; `redactValue` and `redactError` only walk structures and apply it to every string.
 */

export const MASK = '***';

/** Nodes in an n8n error that are not ours to change: the workflow's node (its own parameters). */
const NOT_WALKED = new Set(['node']);

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** JSON string content with every non-ASCII character and "/" escaped, as PHP and Python write JSON. */
function asciiJson(text: string): string {
	return JSON.stringify(text)
		.slice(1, -1)
		.replace(/\//g, '\\/')
		.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Every form a secret can take in a message or a body: raw, JSON-escaped (also twice, and ASCII-only),
 * URL-encoded (component, form and URI style), HTML-escaped, base64 and base64url. A secret inside a
 * longer base64 text (e.g. Basic auth "user:secret") is not found: its base64 depends on what precedes it.
 */
export function secretForms(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const uri = encodeURIComponent(secret);
	const base64 = Buffer.from(secret, 'utf8').toString('base64');
	return [
		secret,
		json,
		JSON.stringify(json).slice(1, -1),
		asciiJson(secret),
		uri,
		uri.replace(/%20/g, '+'),
		encodeURI(secret),
		secret.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]),
		base64,
		base64.replace(/=+$/, ''),
		base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
	];
}

/** Adds the non-empty strings among `values` to `secrets`, once each. */
export function addSecrets(secrets: string[], ...values: unknown[]): void {
	for (const value of values) {
		if (typeof value === 'string' && value !== '' && !secrets.includes(value)) secrets.push(value);
	}
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Patterns {
	/** Replaces every form (global). */
	all: RegExp;
	/** Finds any form, also inside a JSON text: each form is also listed JSON-escaped. */
	any: RegExp;
}

/** Compiled per call, never kept: secrets stay out of module state. */
function patternFor(secrets: readonly unknown[]): Patterns | undefined {
	const values = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s !== ''))];
	// Longest first, so that a form containing another is replaced whole. Case-insensitive, so that
	// %2f / %2F and \u00e9 / \u00E9 match alike; a case variant of a secret is hidden too, which is harmless.
	const forms = [...new Set(values.flatMap(secretForms))].filter((f) => f !== '');
	const source = (list: string[]) => list.sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
	// JSON escapes character by character, so a string holding a form makes its JSON text hold the form's
	// JSON escape: testing one JSON text finds every string (and key) that needs redacting.
	const inJson = forms.map((form) => JSON.stringify(form).slice(1, -1));
	return forms.length > 0
		? { all: new RegExp(source([...forms]), 'gi'), any: new RegExp(source([...new Set([...forms, ...inJson])]), 'i') }
		: undefined;
}

/** The text with every form of every secret replaced by ***. Secrets that are not non-empty strings are ignored. */
export function redact(text: string, secrets: readonly unknown[]): string {
	const patterns = patternFor(secrets);
	return patterns === undefined ? text : text.replace(patterns.all, MASK);
}

/** A copy of plain data (JSON values, objects, arrays) with `redact` applied to every string, keys included. */
export function redactValue<T>(value: T, secrets: readonly unknown[]): T {
	const patterns = patternFor(secrets);
	if (patterns === undefined) return value;
	// Most values hold no secret: one test of their JSON text is far cheaper than a walk (every output item).
	let text: string | undefined;
	try {
		text = JSON.stringify(value);
	} catch {
		text = undefined; // cycles, BigInt: walk
	}
	if (text !== undefined && !patterns.any.test(text)) return value;
	const walk = (current: unknown, seen: Set<object>): unknown => {
		if (typeof current === 'string') return current.replace(patterns.all, MASK);
		if (current === null || typeof current !== 'object') return current;
		if (seen.has(current) || Buffer.isBuffer(current)) return current;
		seen.add(current);
		if (Array.isArray(current)) return current.map((entry) => walk(entry, seen));
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(current)) copy[key.replace(patterns.all, MASK)] = walk(entry, seen);
		return copy;
	};
	return walk(value, new Set()) as T;
}

/**
 * Redacts an error in place, and returns it: every own property (non-enumerable ones too, e.g. message
 * and stack), `errorResponse`, `messages`, `context`, `description` and the whole `cause` chain.
 */
export function redactError<E>(error: E, secrets: readonly unknown[]): E {
	const patterns = patternFor(secrets);
	if (patterns === undefined) return error;
	const seen = new Set<object>();
	const walk = (current: unknown): unknown => {
		if (typeof current === 'string') return current.replace(patterns.all, MASK);
		if (current === null || typeof current !== 'object' || seen.has(current) || Buffer.isBuffer(current)) {
			return current;
		}
		seen.add(current);
		for (const key of Object.getOwnPropertyNames(current)) {
			if (NOT_WALKED.has(key)) continue;
			const descriptor = Object.getOwnPropertyDescriptor(current, key);
			// Getters are not called (they may do anything), except V8's `stack` accessor on errors.
			const readable = descriptor !== undefined && ('value' in descriptor || (key === 'stack' && descriptor.set));
			if (!readable) continue;
			const value = (current as Record<string, unknown>)[key];
			const next = walk(value);
			if (next !== value) {
				try {
					(current as Record<string, unknown>)[key] = next;
				} catch {
					// A frozen or read-only property cannot hold a secret we put there; leave it.
				}
			}
		}
		return current;
	};
	walk(error);
	return error;
}
