/**
 * What a secret looks like where it may leak, for the one redaction (redact.ts): its forms (escaped,
 * encoded) and the patterns that find them, compiled per set of secrets, never kept in module state.
 */
export const MASK = '***';

/** JSON string content with every non-ASCII character escaped, as Python writes JSON (PHP also escapes "/"). */
function asciiJson(json: string): string {
	return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Every form a secret can take in a message or a body: raw, JSON-escaped (also twice, ASCII-only, with "\/"),
 * URL-encoded (component, RFC 3986, form and URI style, and twice: a URL inside another URL's query), base64 and
 * base64url, and the same for its other Unicode normalization (NFC / NFD); HTML entities: formPattern. A secret
 * inside a longer base64 text (e.g. Basic auth "user:secret") is not found: its base64 depends on what precedes it.
 */
export function secretForms(secret: string): string[] {
	// The same text twice (a secret in NFC already) gives the same forms, listed once by the Set.
	return [...new Set([secret, secret.normalize('NFC'), secret.normalize('NFD')].flatMap(formsOf))];
}

function formsOf(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	// A lone surrogate cannot be URL-encoded (encodeURIComponent throws): encoders write U+FFFD, as UTF-8 does.
	const text = Buffer.from(secret, 'utf8').toString('utf8');
	const uri = encodeURIComponent(text);
	const base64 = Buffer.from(secret, 'utf8').toString('base64');
	return [
		secret,
		json,
		JSON.stringify(json).slice(1, -1),
		// Python's json.dumps, PHP's json_encode, and PHP's with JSON_UNESCAPED_UNICODE.
		asciiJson(json),
		asciiJson(json.replace(/\//g, '\\/')),
		json.replace(/\//g, '\\/'),
		// Encoders differ in which of !'()*~ they keep (formPattern takes each either way) and in a space: %20 or +.
		uri,
		uri.replace(/%20/g, '+'),
		encodeURIComponent(uri),
		encodeURI(text),
		base64,
		base64.replace(/=+$/, ''),
		base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
	];
}

/**
 * A secret shorter than this is masked only where a whole string (a value or a key) is one of its forms,
 * or a URL's `token` value: masking every occurrence of a short text would garble everything.
 */
export const MIN_MASKED_LENGTH = 8;

const anyCase = (hex: string) => hex.replace(/[a-f]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);

/** Exact, except the hex digits of escapes (%2f / %2F, \u00e9 / \u00E9). */
function exactPattern(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%[0-9A-Fa-f]{2}|\\\\u[0-9A-Fa-f]{4}/g, anyCase);
}

/** Characters encoders write in more than one way: raw or %-encoded (encoders differ on !'()*~), an HTML entity named
 * as escapers write it or numbered (&#39;, &#x27;). A form holds each raw or as encodeURIComponent writes it. */
const UNSURE = /\\"|%(?:21|22|26|27|28|29|2A|3C|3E|7E)|[!'()*~"&<>]/g;
const NAMED: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' };
// Entities first (a secret ending in & is masked whole), also escaped twice (&amp;lt;); JSON's \u0026 as Go writes it.
const variants = (c: string, hex = c.charCodeAt(0).toString(16)) => [
	`&(?:amp;)?(?:${c in NAMED ? `${NAMED[c]}|` : ''}#0*${c.charCodeAt(0)}|#[xX]0*${anyCase(hex)});`,
	...[c, `%${hex}`, `\\u00${hex}`].map(exactPattern),
];

/** A form as a pattern: exactPattern, each UNSURE character in any of its ways; a JSON-escaped quote's backslash
 * kept (a JSON text HTML-escaped: \&quot;) or not (a quote HTML-escaped, then put in JSON). */
function formPattern(form: string): string {
	let pattern = '';
	let at = 0;
	for (const { 0: token, index } of form.matchAll(UNSURE)) {
		const escapedQuote = token === '\\"';
		const c = escapedQuote ? '"' : token.length === 1 ? token : decodeURIComponent(token);
		pattern += `${exactPattern(form.slice(at, index))}${escapedQuote ? '\\\\?' : ''}(?:${variants(c).join('|')})`;
		at = index + token.length;
	}
	return pattern + exactPattern(form.slice(at));
}

/** A URL's token parameter (inbound/token.ts), its name in any case. */
const TOKEN_VALUE_AT = '[?&][tT][oO][kK][eE][nN]=';

export interface Patterns {
	/** Replaces every form of a long secret, and of a short one as a URL's token value (global). */
	all: RegExp;
	/** Forms of short secrets (any of their ways, formPattern), masked only as whole strings. */
	whole?: RegExp;
	/** Finds any form, also inside a JSON text: each form is also listed JSON-escaped (short ones quoted). */
	any: RegExp;
}

const byLength = (list: string[]) =>
	[...new Set(list)]
		.sort((a, b) => b.length - a.length)
		.map(formPattern)
		.join('|');

/** The patterns of `secrets` (non-empty strings; other values are ignored), or undefined when there is none. */
export function secretPatterns(secrets: readonly unknown[]): Patterns | undefined {
	const values = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s !== ''))];
	if (values.length === 0) return undefined;
	const long = values.filter((s) => s.length >= MIN_MASKED_LENGTH).flatMap(secretForms);
	const short = values.filter((s) => s.length < MIN_MASKED_LENGTH).flatMap(secretForms);
	// JSON escapes character by character, so a string holding a form makes its JSON text hold the form's
	// JSON escape: testing one JSON text finds every string (and key) that needs redacting.
	const inJson = (form: string) => JSON.stringify(form).slice(1, -1);
	const any = [...long, ...long.map(inJson), ...short.flatMap((f) => [`"${inJson(f)}"`, `"${inJson(inJson(f))}"`])];
	const shortInUrl = (forms: string[]) => `(?<=${TOKEN_VALUE_AT})(?:${byLength(forms)})(?=[&#"'\\s\\\\]|$)`;
	// Longest first, so that a form containing another is replaced whole. One secret at least: never empty.
	const all = [...(long.length > 0 ? [byLength(long)] : []), ...(short.length > 0 ? [shortInUrl(short)] : [])];
	return {
		all: new RegExp(all.join('|'), 'g'),
		whole: short.length > 0 ? new RegExp(`^(?:${byLength(short)})$`) : undefined,
		any: new RegExp(
			[byLength(any), ...(short.length > 0 ? [shortInUrl([...short, ...short.map(inJson)])] : [])].join('|'),
		),
	};
}

/** `text` with every form found replaced by MASK. */
export function maskIn(text: string, patterns: Patterns): string {
	if (patterns.whole?.test(text) === true) return MASK;
	return text.replace(patterns.all, MASK);
}
