/**
 * Metadata goes out under both request keys with the same value: the API reference names `meta`, the
 * vendor's SDK sends `metadata`, and a service reads one and ignores the other. Change the list here.
 */
import type { IDataObject, JsonValue } from 'n8n-workflow';

import { isObject } from '../helpers/json';
import { InputProblem, isProblem, textOf } from './checks';

export const METADATA_KEYS = ['meta', 'metadata'] as const;

export function putMetadata(target: IDataObject, value: JsonValue | IDataObject): void {
	for (const key of METADATA_KEYS) target[key] = value as IDataObject;
}

/** Text > Moderate's metadata: a JSON object; undefined when empty. */
export function checkMetadataObject(value: unknown, field: string): IDataObject | undefined | InputProblem {
	const example =
		'Enter a JSON object such as {"orderId": "A-17"} (double quotes around names and texts), or leave it empty.';
	if (value === undefined || value === null) return undefined;
	if (isObject(value)) return Object.keys(value).length === 0 ? undefined : value;
	if (typeof value !== 'string') return new InputProblem(`The ${field} must be a JSON object`, example);
	if (value.trim() === '') return undefined;
	let parsed: unknown;
	try {
		parsed = JSON.parse(value);
	} catch (error) {
		return new InputProblem(`The ${field} is not valid JSON`, `${example} Parser said: ${(error as Error).message}`);
	}
	if (!isObject(parsed))
		return new InputProblem(
			`The ${field} must be a JSON object, not ${Array.isArray(parsed) ? 'an array' : typeof parsed}`,
			example,
		);
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
