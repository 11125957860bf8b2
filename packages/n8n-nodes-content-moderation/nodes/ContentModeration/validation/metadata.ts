/**
 * Metadata goes out under both request keys with the same value: the API reference names `meta`, the
 * vendor's SDK sends `metadata`, and a service reads one and ignores the other. Change the list here.
 */
import type { IDataObject, JsonValue } from 'n8n-workflow';

import { isObject } from '../helpers/json';
import { InputProblem, isProblem, parseMetaJson, textOf } from './checks';

export const METADATA_KEYS = ['meta', 'metadata'] as const;

export function putMetadata(target: IDataObject, value: JsonValue | IDataObject): void {
	for (const key of METADATA_KEYS) target[key] = value as IDataObject;
}

/** Text > Moderate's metadata: a JSON object; undefined when empty. */
export function checkMetadataObject(value: unknown, field: string): IDataObject | undefined | InputProblem {
	const fix =
		'Enter a JSON object such as {"orderId": "A-17"} (double quotes around names and texts), or leave it empty.';
	const parsed = parseMetaJson(value, field, fix);
	if (parsed === undefined || isProblem(parsed)) return parsed;
	if (!isObject(parsed)) {
		const given = typeof value === 'string' ? `, not ${Array.isArray(parsed) ? 'an array' : typeof parsed}` : '';
		return new InputProblem(`The ${field} must be a JSON object${given}`, fix);
	}
	return Object.keys(parsed).length === 0 ? undefined : parsed;
}

/**
 * A queue item's metadata: a JSON object written as text is sent as that object; any other text as it is,
 * a number as its text. A list or a boolean is refused rather than turned into text by accident.
 */
export function queueMetadataValue(value: unknown): JsonValue | undefined | InputProblem {
	if (value === undefined || value === null) return undefined;
	if (isObject(value)) return value as JsonValue;
	const text =
		typeof value === 'number' && Number.isFinite(value) ? String(value) : textOf(value, 'Metadata', '{{ $json.meta }}');
	if (isProblem(text)) return text;
	if (text.trim() === '') return undefined;
	try {
		const parsed: unknown = JSON.parse(text);
		return isObject(parsed) ? (parsed as JsonValue) : text;
	} catch {
		return text;
	}
}
