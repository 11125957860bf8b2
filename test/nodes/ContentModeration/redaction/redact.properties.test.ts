/**
 * Properties of the one redaction over any secret of MIN_MASKED_LENGTH or more characters: none of its forms
 * (as secretPatterns.ts lists them, written out again here) survives anywhere in a value or an error it is
 * planted in, at any depth, key or value, message, description, errorResponse, context, cause or a property
 * keyed by a symbol; what is
 * not a secret comes out as it went in (Buffers as Buffers, the error's `node` untouched).
 */
import { fc, test } from '@fast-check/jest';
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import { redactError, redactValue } from '@package/nodes/ContentModeration/redaction/redact';
import { MASK, MIN_MASKED_LENGTH } from '@package/nodes/ContentModeration/redaction/secretPatterns';
import { contentModerationNode } from '@test/helpers/fixtures';
import { everyString } from '@test/helpers/leaks';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
const nonAscii = (text: string) =>
	text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const html = (text: string) =>
	text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The forms the code claims to cover, each as another program would write the secret. */
function formsOf(secret: string): Record<string, string> {
	const json = jsonEscaped(secret);
	return {
		raw: secret,
		NFC: secret.normalize('NFC'),
		NFD: secret.normalize('NFD'),
		'JSON-escaped': json,
		'JSON-escaped twice': jsonEscaped(json),
		'JSON, ASCII-only (Python)': nonAscii(json),
		'JSON, ASCII-only with \\/ (PHP)': nonAscii(json.replace(/\//g, '\\/')),
		'JSON with \\/ (PHP, unescaped Unicode)': json.replace(/\//g, '\\/'),
		'URL-encoded': encodeURIComponent(secret),
		'URL-encoded, lower-case hex': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
		'form-encoded (URLSearchParams)': new URLSearchParams({ a: secret }).toString().slice(2),
		'URI-encoded (encodeURI)': encodeURI(secret),
		'URL-encoded twice': encodeURIComponent(encodeURIComponent(secret)),
		'in a URL query': `https://n8n.example/webhook/x/callback?token=${encodeURIComponent(secret)}&n=1`,
		Bearer: `Bearer ${secret}`,
		'HTML-escaped': html(secret),
		base64: base64(secret),
		'base64 without padding': base64(secret).replace(/=+$/, ''),
		base64url: Buffer.from(secret, 'utf8').toString('base64url'),
	};
}

/** Characters every encoding treats differently: JSON, URL, form and HTML escapes, non-ASCII, astral. */
const SPECIAL = [...'"\\/+&=%? #<>\'!()*~é€😀\n\t', '\u0301'];
const secretArb = fc
	.oneof(
		fc.string({ unit: fc.constantFrom(...'abcXYZ0129-_.'.split(''), ...SPECIAL), minLength: MIN_MASKED_LENGTH, maxLength: 20 }),
		fc.string({ unit: 'grapheme', minLength: MIN_MASKED_LENGTH, maxLength: 16 }),
		fc.string({ unit: 'binary', minLength: MIN_MASKED_LENGTH, maxLength: 16 }),
	)
	.filter((s) => s.length >= MIN_MASKED_LENGTH && !s.includes(MASK));

/** Plain data beside the secret, which must come out unchanged; no `__proto__` key (a literal cannot hold it). */
const noise = fc.jsonValue({ maxDepth: 2 }).filter((v) => !JSON.stringify(v).includes('__proto__'));
const bufferArb = fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes));

/** Where the text holding the secret sits in a value: a path of arrays and objects, or as a key. */
const step = fc.oneof(
	fc.record({ kind: fc.constant('array' as const), at: fc.nat(2) }),
	fc.record({ kind: fc.constant('object' as const), key: fc.string({ maxLength: 6 }) }),
);
const placement = fc.record({
	path: fc.array(step, { maxLength: 6 }),
	asKey: fc.boolean(),
	prefix: fc.string({ maxLength: 6 }),
	suffix: fc.string({ maxLength: 6 }),
});

type Placement = typeof placement extends fc.Arbitrary<infer T> ? T : never;

/** The value with `text` at the placement, `sibling` and `buffer` beside it at each level. */
function build(p: Placement, text: string, sibling: unknown, buffer: Buffer): unknown {
	let value: unknown = p.asKey ? { [text]: 1 } : text;
	for (const s of [...p.path].reverse()) {
		if (s.kind === 'array') {
			const list: unknown[] = [sibling, buffer];
			list.splice(s.at, 0, value);
			value = list;
		} else {
			value = { sibling, buffer, [`k${s.key}`]: value };
		}
	}
	return value;
}

/** Every form of the secret found in any string reachable from `value` (keys and error stacks too). */
function leaksIn(value: unknown, forms: Record<string, string>, skipKeys: string[] = []): string[] {
	const strings = everyString(value, skipKeys);
	return Object.entries(forms)
		.filter(([, form]) => strings.some((s) => s.includes(form)))
		.map(([name, form]) => `${name}: ${JSON.stringify(form)}`);
}

/** A case is meaningful only when the masked skeleton (MASK where the secret was) holds no form by itself. */
function skeletonHoldsNoForm(skeleton: unknown, forms: Record<string, string>): boolean {
	return leaksIn(skeleton, forms).length === 0;
}

const formName = (secret: string) => fc.constantFrom(...Object.keys(formsOf(secret)));

describe('redactValue', () => {
	test.prop([secretArb.chain((secret) => fc.tuple(fc.constant(secret), formName(secret))), placement, noise, bufferArb])(
		'no form of the secret survives, wherever it sits; the rest is unchanged, Buffers as Buffers',
		([secret, name], p, sibling, buffer) => {
			const forms = formsOf(secret);
			const text = `${p.prefix}${forms[name]}${p.suffix}`;
			fc.pre(!JSON.stringify(sibling).includes(secret) && leaksIn(sibling, forms).length === 0);
			fc.pre(!p.prefix.includes(secret) && !p.suffix.includes(secret));
			fc.pre(skeletonHoldsNoForm(build(p, `${p.prefix}${MASK}${p.suffix}`, sibling, buffer), forms));

			const value = build(p, text, sibling, buffer);
			const before = structuredClone(value);
			const redacted = redactValue(value, [secret]);

			expect(leaksIn(redacted, forms)).toEqual([]);
			expect(value).toEqual(before);
			// The same shape, with the secret's text masked and everything else as it was.
			const walk = (out: unknown, original: unknown): void => {
				if (Buffer.isBuffer(original)) {
					expect(Buffer.isBuffer(out)).toBe(true);
					expect(out).toEqual(original);
				} else if (typeof original === 'string') {
					if (original !== text) expect(out).toBe(original);
				} else if (Array.isArray(original)) {
					expect(Array.isArray(out)).toBe(true);
					original.forEach((entry, i) => walk((out as unknown[])[i], entry));
				} else if (original !== null && typeof original === 'object') {
					const entries = Object.entries(original);
					const outEntries = Object.entries(out as object);
					expect(outEntries).toHaveLength(entries.length);
					for (const [key, entry] of entries) {
						if (key === text) continue;
						walk((out as Record<string, unknown>)[key], entry);
					}
				} else {
					expect(out).toBe(original);
				}
			};
			walk(redacted, value);
		},
	);

	test.prop([secretArb, noise, bufferArb])('a value without the secret is returned as it is', (secret, sibling, buffer) => {
		fc.pre(leaksIn(sibling, formsOf(secret)).length === 0 && !JSON.stringify(sibling).includes(jsonEscaped(secret)));
		const value = { sibling, buffer };
		expect(redactValue(value, [secret])).toBe(value);
	});
});

/** Where the text sits in an error: its message, description, a nested errorResponse, context or a cause. */
const errorPlace = fc.constantFrom(
	'message',
	'description',
	'errorResponse',
	'context',
	'cause',
	'cause of cause',
	'own non-enumerable property',
	'symbol-keyed property',
	'messages',
);

/** Where Node's own objects keep their state (a request's headers, kOutHeaders): an error may carry one. */
const INTERNAL = Symbol('internal');

function nodeWith(secret: string): INode {
	// The workflow's own parameters may hold anything the user typed, the secret too: not ours to change.
	return { ...contentModerationNode, parameters: { text: `typed ${secret}`, options: { note: [secret] } } };
}

function errorWith(place: string, text: string, sibling: unknown, buffer: Buffer, secret: string): Error {
	const node = nodeWith(secret);
	const nested = { sibling, buffer, deeper: [{ text }] };
	switch (place) {
		case 'message':
			return new NodeOperationError(node, text, { description: 'plain' });
		case 'description':
			return new NodeOperationError(node, 'plain', { description: text });
		case 'errorResponse':
			return new NodeApiError(node, { message: 'plain', body: nested } as unknown as JsonObject, { message: 'plain', httpCode: '400' });
		case 'context': {
			const error = new NodeOperationError(node, 'plain');
			error.context.data = nested;
			return error;
		}
		case 'cause':
			return new NodeOperationError(node, new Error(text));
		case 'cause of cause': {
			const error = new NodeOperationError(node, 'plain');
			(error as { cause?: unknown }).cause = Object.assign(new Error('outer'), { cause: new Error(text), nested });
			return error;
		}
		case 'own non-enumerable property': {
			const error = new NodeOperationError(node, 'plain');
			Object.defineProperty(error, 'hidden', { value: nested, enumerable: false, writable: true });
			return error;
		}
		case 'symbol-keyed property':
			return Object.assign(new NodeOperationError(node, 'plain'), { [INTERNAL]: nested });
		default: {
			const error = new NodeApiError(node, { message: 'plain' });
			error.messages = ['plain', text];
			return error;
		}
	}
}

describe('redactError', () => {
	test.prop([secretArb.chain((secret) => fc.tuple(fc.constant(secret), formName(secret))), errorPlace, noise, bufferArb, fc.string({ maxLength: 6 })])(
		'no form of the secret survives in any property; error.node and what is not a secret are left as they were',
		([secret, name], place, sibling, buffer, prefix) => {
			const forms = formsOf(secret);
			fc.pre(leaksIn(sibling, forms).length === 0 && !prefix.includes(secret));
			const skeleton = errorWith(place, `${prefix}${MASK}`, sibling, buffer, secret);
			fc.pre(leaksIn(skeleton, forms, ['node']).length === 0);

			const error = errorWith(place, `${prefix}${forms[name]}`, sibling, buffer, secret) as Error & {
				node: INode;
			};
			const node = error.node;
			const nodeBefore = structuredClone(node);
			expect(leaksIn(error, forms, ['node']).length).toBeGreaterThan(0);

			expect(redactError(error, [secret])).toBe(error);

			expect(leaksIn(error, forms, ['node'])).toEqual([]);
			expect(error.node).toBe(node);
			expect(node).toEqual(nodeBefore);
			// Plain data beside it: unchanged, Buffers still Buffers.
			const holders = [
				(error as { errorResponse?: { body?: unknown } }).errorResponse?.body,
				(error as NodeOperationError).context?.data,
				(error as { hidden?: unknown }).hidden,
				(error as { [INTERNAL]?: unknown })[INTERNAL],
				((error as { cause?: unknown }).cause as { nested?: unknown } | undefined)?.nested,
			].filter((holder): holder is { sibling: unknown; buffer: unknown } => holder !== undefined && holder !== null);
			for (const holder of holders) {
				expect(holder.sibling).toEqual(sibling);
				expect(Buffer.isBuffer(holder.buffer)).toBe(true);
				expect(holder.buffer).toEqual(buffer);
			}
		},
	);
});
