/**
 * THE redaction of secrets (the access token, the callback secret, a token found in a callback URL or a
 * callback request). Everything that may reach an error, an output item or a response goes through
 * `redact`; `redactValue` and `redactError` only walk structures and apply it to every string.
 * `redactionFor` compiles the patterns of one set of secrets once, for a caller that redacts with the same
 * secrets again and again (the trigger's secret cache).
 */

import { MAX_DEPTH, nestedDeeperThan } from '../helpers/json';

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
 * URL-encoded (component, form and URI style, and twice: a URL inside another URL's query), HTML-escaped,
 * base64 and base64url, and the same for its other Unicode normalization (NFC / NFD). A secret inside a
 * longer base64 text (e.g. Basic auth "user:secret") is not found: its base64 depends on what precedes it.
 */
export function secretForms(secret: string): string[] {
	const other = [secret.normalize('NFC'), secret.normalize('NFD')].filter((form) => form !== secret);
	return [...new Set([secret, ...other].flatMap(formsOf))];
}

function formsOf(secret: string): string[] {
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
		encodeURIComponent(uri),
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

/**
 * A secret shorter than this is masked only where a whole string (a value or a key) is one of its forms,
 * or a URL's `token` value: masking every occurrence of a short text would garble everything.
 */
export const MIN_MASKED_LENGTH = 8;

/** A form as a pattern: exact, except the hex digits of its escapes (%2f / %2F, \u00e9 / \u00E9). */
function formPattern(form: string): string {
	const anyCase = (c: string) => (/[a-f]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c);
	return escapeRegExp(form).replace(/(%)([0-9A-Fa-f]{2})|(\\\\u)([0-9A-Fa-f]{4})/g, (_, p: string, ph: string, u: string, uh: string) =>
		p !== undefined ? p + [...ph].map(anyCase).join('') : u + [...uh].map(anyCase).join(''),
	);
}

/** A URL's token parameter (inbound/token.ts), its name in any case. */
const TOKEN_VALUE_AT = '[?&][tT][oO][kK][eE][nN]=';

interface Patterns {
	/** Replaces every form of a long secret, and of a short one as a URL's token value (global); undefined when there is none. */
	all?: RegExp;
	/** Forms of short secrets, masked only as whole strings. */
	whole: Set<string>;
	/** Finds any form, also inside a JSON text: each form is also listed JSON-escaped (short ones quoted). */
	any: RegExp;
}

const byLength = (list: string[]) => [...new Set(list)].sort((a, b) => b.length - a.length).map(formPattern).join('|');

/** Compiled per call or per Redaction (held in its closure), never in module state. */
function patternFor(secrets: readonly unknown[]): Patterns | undefined {
	const values = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s !== ''))];
	if (values.length === 0) return undefined;
	const long = values.filter((s) => s.length >= MIN_MASKED_LENGTH).flatMap(secretForms);
	const short = values.filter((s) => s.length < MIN_MASKED_LENGTH).flatMap(secretForms);
	// JSON escapes character by character, so a string holding a form makes its JSON text hold the form's
	// JSON escape: testing one JSON text finds every string (and key) that needs redacting.
	const inJson = (form: string) => JSON.stringify(form).slice(1, -1);
	const any = [...long, ...long.map(inJson), ...short.flatMap((f) => [`"${inJson(f)}"`, `"${inJson(inJson(f))}"`])];
	const shortInUrl = (forms: string[]) => `(?<=${TOKEN_VALUE_AT})(?:${byLength(forms)})(?=[&#"'\\s\\\\]|$)`;
	// Longest first, so that a form containing another is replaced whole.
	const all = [...(long.length > 0 ? [byLength(long)] : []), ...(short.length > 0 ? [shortInUrl(short)] : [])];
	return {
		all: all.length > 0 ? new RegExp(all.join('|'), 'g') : undefined,
		whole: new Set(short),
		any: new RegExp([byLength(any), ...(short.length > 0 ? [shortInUrl([...short, ...short.map(inJson)])] : [])].join('|')),
	};
}

function apply(text: string, patterns: Patterns): string {
	if (patterns.whole.has(text)) return MASK;
	return patterns.all === undefined ? text : text.replace(patterns.all, MASK);
}

/** The redaction of one set of secrets, compiled once; the secrets stay in its closure (not shown by inspecting it). */
export interface Redaction {
	text(text: string): string;
	value<T>(value: T): T;
	error<E>(error: E): E;
}

const NO_SECRETS: Redaction = { text: (text) => text, value: (value) => value, error: (error) => error };

export function redactionFor(secrets: readonly unknown[]): Redaction {
	const patterns = patternFor(secrets);
	if (patterns === undefined) return NO_SECRETS;
	return {
		text: (text) => apply(text, patterns),
		value: (value) => valueWith(value, patterns),
		error: (error) => errorWith(error, patterns),
	};
}

/** The text with every form of every secret replaced by ***. Secrets that are not non-empty strings are ignored. */
export function redact(text: string, secrets: readonly unknown[]): string {
	return redactionFor(secrets).text(text);
}

/**
 * A copy of plain data (JSON values, objects, arrays) with `redact` applied to every string, keys included.
 * Keys are defined, never assigned, so a key `__proto__` stays a key and changes no prototype. What lies
 * deeper than MAX_DEPTH is not walked but masked whole: it cannot be shown to hold no secret.
 */
export function redactValue<T>(value: T, secrets: readonly unknown[]): T {
	return redactionFor(secrets).value(value);
}

function valueWith<T>(value: T, patterns: Patterns): T {
	// Most values hold no secret: one test of their JSON text is far cheaper than a walk (every output item).
	let text: string | undefined;
	try {
		text = nestedDeeperThan(value, MAX_DEPTH) ? undefined : JSON.stringify(value);
	} catch {
		text = undefined; // cycles, BigInt: walk
	}
	if (text !== undefined && !patterns.any.test(text)) return value;
	// `open` holds the objects being walked (a cycle); an object met twice elsewhere is copied twice.
	const open = new Set<object>();
	const walk = (current: unknown, depth: number): unknown => {
		if (typeof current === 'string') return apply(current, patterns);
		if (current === null || typeof current !== 'object' || Buffer.isBuffer(current)) return current;
		if (open.has(current)) return MASK;
		if (depth >= MAX_DEPTH) return MASK;
		open.add(current);
		let copy: unknown;
		if (Array.isArray(current)) {
			copy = current.map((entry) => walk(entry, depth + 1));
		} else {
			const object: Record<string, unknown> = {};
			for (const [key, entry] of Object.entries(current)) {
				const property = { value: walk(entry, depth + 1), enumerable: true, writable: true, configurable: true };
				Object.defineProperty(object, apply(key, patterns), property);
			}
			copy = object;
		}
		open.delete(current);
		return copy;
	};
	return walk(value, 0) as T;
}

/**
 * Redacts an error in place, and returns it: every own property (non-enumerable ones too, e.g. message
 * and stack), `errorResponse`, `messages`, `context`, `description` and the whole `cause` chain.
 */
export function redactError<E>(error: E, secrets: readonly unknown[]): E {
	return redactionFor(secrets).error(error);
}

function errorWith<E>(error: E, patterns: Patterns): E {
	const seen = new Set<object>();
	const walk = (current: unknown, depth: number): unknown => {
		if (typeof current === 'string') return apply(current, patterns);
		if (current === null || typeof current !== 'object' || seen.has(current) || Buffer.isBuffer(current)) {
			return current;
		}
		if (depth >= MAX_DEPTH) return MASK;
		seen.add(current);
		for (const key of Object.getOwnPropertyNames(current)) {
			if (NOT_WALKED.has(key)) continue;
			const descriptor = Object.getOwnPropertyDescriptor(current, key);
			// Getters are not called (they may do anything), except V8's `stack` accessor on errors.
			const readable = descriptor !== undefined && ('value' in descriptor || (key === 'stack' && descriptor.set));
			if (!readable) continue;
			const value = (current as Record<string, unknown>)[key];
			const next = walk(value, depth + 1);
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
	walk(error, 0);
	return error;
}
