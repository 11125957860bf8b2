/** Field checks without n8n: each returns the checked value or an InputProblem (what is wrong, how to fix it). */
import type { JsonValue } from 'n8n-workflow';

import { finiteNumber } from '../helpers/numbers';
import { tokensInUrl } from '../helpers/urlTokens';
import { segmentProblem } from '../transport/baseUrl';

/** The spec's minimum for identifier path parameters (section 8). */
const MIN_ID_LENGTH = 3;

/** A field check that failed: what is wrong and how to fix it. */
export class InputProblem {
	constructor(
		readonly message: string,
		readonly description: string,
	) {}
}

/** What an expression gave, in words for an error: its kind and size, never its content. */
export function describeValue(value: unknown): string {
	if (value === null || value === undefined) return String(value);
	if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
	if (typeof value === 'object') {
		const keys = Object.keys(value).map((key) => (key.length > 40 ? `${key.slice(0, 40)}…` : key));
		if (keys.length === 0) return 'an empty object';
		return `an object with keys ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}`;
	}
	return typeof value === 'number' ? `a number (${value})` : `a ${typeof value}`;
}

/**
 * A field's text as an expression gave it; with `wholeNumbers` a safe whole number (a numeric user id) as
 * its digits. Anything else is refused, never turned into text by accident ("[object Object]", "false").
 */
export function textOf(value: unknown, field: string, example: string, wholeNumbers = false): string | InputProblem {
	if (typeof value === 'string') return value;
	if (value === undefined) return '';
	if (wholeNumbers && Number.isSafeInteger(value)) return String(value);
	const wanted = wholeNumbers ? 'a text or a whole number' : 'a text';
	return new InputProblem(
		`The ${field} must be ${wanted}, but the expression gave ${describeValue(value)}`,
		`Nothing was sent. Map the value itself, not the object or list around it, for example ${example}; check the input item in the Input panel.`,
	);
}

/** Trimmed: expressions often add a newline. */
export function checkId(value: unknown, field: string): string | InputProblem {
	const text = textOf(value, field, '{{ $json.id }}', true);
	if (isProblem(text)) return text;
	const id = text.trim();
	if (id === '') {
		return new InputProblem(
			`The ${field} is empty`,
			`Enter the ${field}, or map it from a previous node with an expression (for example {{ $json.id }}).`,
		);
	}
	const problem = segmentProblem(id);
	if (problem !== undefined) {
		return new InputProblem(
			`The ${field} ${problem}`,
			`Enter the ${field} the service returned (for example 9b2e6c1d-…), or check the expression that produces it.`,
		);
	}
	if (id.length < MIN_ID_LENGTH) {
		return new InputProblem(
			`The ${field} "${id}" is too short`,
			`IDs of the Content Moderation Service have at least ${MIN_ID_LENGTH} characters. Check the value or the expression that produces it.`,
		);
	}
	return id;
}

/** A non-empty text to moderate (not trimmed: sent as typed). */
export function checkNotEmpty(value: unknown, field: string, hint: string): string | InputProblem {
	const text = textOf(value, field, '{{ $json.body.text }}');
	if (isProblem(text)) return text;
	if (text.trim() === '') return new InputProblem(`The ${field} is empty`, hint);
	return text;
}

/** An optional text option (Actor ID, Callback URL): trimmed, undefined when empty or null (not sent). */
export function optionalText(
	value: unknown,
	field: string,
	example: string,
	wholeNumbers = false,
): string | undefined | InputProblem {
	if (value === null) return undefined;
	const text = textOf(value, field, example, wholeNumbers);
	if (isProblem(text)) return text;
	return text.trim() === '' ? undefined : text.trim();
}

/** 0-100; anything else ("70%", an object, empty) is refused: it would silently turn its rule off. */
export function checkThreshold(value: unknown, field: string): number | InputProblem {
	const number = finiteNumber(value);
	if (number !== undefined && number >= 0 && number <= 100) return number;
	const given = typeof value === 'string' ? `"${value.slice(0, 40)}"` : describeValue(value);
	return new InputProblem(
		`The ${field} must be a number from 0 to 100, but it is ${given}`,
		'Nothing was sent. Enter a number such as 70 (a text of digits such as "70" is read too; 0 turns the rule off), or fix the expression that gives it.',
	);
}

/** A secret typed into the URL sits in plain text in the workflow; the node adds the credential's. */
export function checkNoPastedToken(url: string, field: string): string | InputProblem {
	if (tokensInUrl(url).length === 0) return url;
	return new InputProblem(
		`The ${field} carries a token (token=…)`,
		`Remove the token from the ${field} and set a Callback Secret in the Content Moderation API credential instead, selected here and in the Content Moderation Trigger: the node adds it to the URL for you, and the trigger checks it.`,
	);
}

export function checkHttpUrl(value: unknown, field: string): string | InputProblem {
	const given = textOf(value, field, '{{ $json.image.url }}');
	if (isProblem(given)) return given;
	const text = given.trim();
	const description = `Enter a full address starting with http:// or https://, for example https://example.com/photo.jpg.`;
	if (text === '') return new InputProblem(`The ${field} is empty`, description);
	if (!URL.canParse(text)) return new InputProblem(`The ${field} "${text}" is not a valid URL`, description);
	const url = new URL(text);
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return new InputProblem(`The ${field} must be an http(s) URL, not ${url.protocol.replace(/:$/, '')}`, description);
	}
	return text;
}

const DATA_URI_PREFIX = /^data:[^,]*;base64,/i;

/** Base64 without a `data:` prefix or the line breaks of copied text, and decoding back to the same text. */
export function normalizeBase64(value: unknown, field: string): string | InputProblem {
	const description =
		'Enter the image as base64 text (for example iVBORw0KGgo...). A "data:image/png;base64," prefix is accepted. To send a file, set Input Type to Binary File instead.';
	const raw = textOf(value, field, '{{ $json.image.data }}');
	if (isProblem(raw)) return raw;
	const text = raw.trim().replace(DATA_URI_PREFIX, '').replace(/\s/g, '');
	if (text === '') return new InputProblem(`The ${field} is empty`, description);
	// Decoding and encoding again gives the text back only for padded base64 of the standard alphabet. No regexp
	// loops over the value: where V8 stops optimizing regexps, such a loop overflows its stack on a few MB.
	const valid = text.length % 4 === 0 && Buffer.from(text, 'base64').toString('base64') === text;
	return valid ? text : new InputProblem(`The ${field} is not valid base64`, description);
}

/** A Metadata (JSON) field: JSON text parsed, anything else (from an expression) as it is. */
export function parseMetaJson(
	value: unknown,
	field: string,
	fix = 'Enter JSON such as {"orderId": "A-17"} (double quotes around names and texts).',
): JsonValue | undefined | InputProblem {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') return value as JsonValue;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value) as JsonValue;
	} catch (error) {
		return new InputProblem(`The ${field} is not valid JSON`, `${fix} Parser said: ${(error as Error).message}`);
	}
}

export function isProblem<T>(value: T | InputProblem): value is InputProblem {
	return value instanceof InputProblem;
}
