import { badField, MockApiError } from './errors';
import type { MetadataKey } from './options';

/** An image as the spec allows it: an http(s) URL or plain base64 of a PNG, JPEG, GIF or WebP. */
export type ImageInput =
	| { kind: 'url'; url: string }
	| { kind: 'base64'; bytes: Buffer; format: ImageFormat };

type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export type JsonObject = Record<string, unknown>;

/** What the direct moderation endpoints share in `options`. */
interface ModerationOptions {
	/** The metadata under the key the service reads (see `metadataKey`); undefined when none */
	meta?: unknown;
	callbackUrl?: string;
	defer?: boolean;
	actorId?: string;
}

interface ImageRequest extends ModerationOptions {
	image: ImageInput;
}

interface TextRequest extends ModerationOptions {
	text: string;
	bannedWords: string[];
}

interface QueueRequest {
	type: 'text' | 'image';
	content: string;
	/** Parsed image when type is image */
	image?: ImageInput;
	/** An object, or a string kept as sent */
	meta?: JsonObject | string;
	actorId?: string;
}

const BASE64_ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_ALPHABET[c.charCodeAt(0)] = 1;

/**
 * Whether `value` is padded base64, by a loop, not a regexp: once a process has compiled over 1 MB of regexp
 * code and holds over 16 MB of executable memory (a jest worker after a few suites), V8 compiles new regexps
 * unoptimized, and `^[A-Za-z0-9+/]+={0,2}$` then takes backtrack stack per character (a 17 MB image
 * overflowed it). The loop's stack is constant, and in the mock it took 4.1 ms a 1.4 MB body where a regexp
 * search for a character outside the alphabet took 9.7 ms.
 */
function isBase64(value: string): boolean {
	const pad = value.indexOf('=');
	const body = pad < 0 ? value.length : pad;
	if (body === 0 || value.length % 4 !== 0) return false;
	for (let i = 0; i < body; i++) {
		const c = value.charCodeAt(i);
		if (c > 127 || BASE64_ALPHABET[c] === 0) return false;
	}
	return value.length - body <= 2 && value.slice(body) === '='.repeat(value.length - body);
}

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
	if (value === null) return 'null';
	return Array.isArray(value) ? 'array' : typeof value;
}

function imageFormat(bytes: Buffer): ImageFormat | undefined {
	if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
	if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
	const head = bytes.toString('latin1', 0, 12);
	if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'gif';
	if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
	return undefined;
}

function httpUrl(value: string, field: string): string {
	let parsed: URL;
	try {
		parsed = new URL(value);
	} catch {
		throw badField(field, 'invalid_field', `${field} is not a valid URL`);
	}
	if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
		throw badField(field, 'invalid_field', `${field} must be an absolute http(s) URL`);
	}
	return value;
}

/** Parses an image string strictly (see docs/service-interface.md, "POST /image validation"); a fault is a 400 naming `field`. */
export function parseImage(value: unknown, field: string): ImageInput {
	if (value === undefined) throw badField(field, 'missing_field', `${field} is required`);
	if (typeof value !== 'string') {
		throw badField(field, 'invalid_type', `${field} must be a string (an image URL or base64), not ${typeName(value)}`);
	}
	if (value === '') throw badField(field, 'invalid_field', `${field} must not be empty`);
	if (value.trim() !== value) throw badField(field, 'invalid_field', `${field} has leading or trailing whitespace`);
	if (/^https?:\/\//i.test(value)) return { kind: 'url', url: httpUrl(value, field) };
	if (/^data:/i.test(value)) {
		throw badField(field, 'invalid_field', `${field} is a data: URI; send plain base64 without the data: prefix`);
	}
	if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
		throw badField(field, 'invalid_field', `${field} must be an http(s) URL or base64; other URL schemes are refused`);
	}
	if (!isBase64(value)) {
		throw badField(field, 'invalid_field', `${field} is neither an http(s) URL nor valid padded base64`);
	}
	const bytes = Buffer.from(value, 'base64');
	const format = imageFormat(bytes);
	if (!format) throw badField(field, 'invalid_field', `${field} is base64 but not a PNG, JPEG, GIF or WebP image`);
	return { kind: 'base64', bytes, format };
}

function rejectUnknownKeys(body: JsonObject, allowed: readonly string[], prefix: string): void {
	for (const key of Object.keys(body)) {
		if (!allowed.includes(key)) {
			const field = prefix + key;
			throw badField(field, 'unknown_field', `${field} is not a field of this request (allowed: ${allowed.join(', ')})`);
		}
	}
}

function optionalString(value: unknown, field: string): string | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== 'string') throw badField(field, 'invalid_type', `${field} must be a string, not ${typeName(value)}`);
	return value;
}

// An empty actor id is almost always an unfilled expression: refuse it so the caller's bug shows.
function optionalActorId(value: unknown, field: string): string | undefined {
	const actorId = optionalString(value, field);
	if (actorId === '') throw badField(field, 'invalid_field', `${field} must not be empty`);
	return actorId;
}

function requireObjectBody(body: unknown): JsonObject {
	if (!isObject(body)) {
		throw new MockApiError(400, 'invalid_body', `The request body must be a JSON object, not ${typeName(body)}`);
	}
	return body;
}

/**
 * The metadata of a request, from the key `metadataKey` names (`both`: `meta` when present, else
 * `metadata`). The other key is ignored, never refused. `check` validates the value read.
 */
function readMetadata(
	holder: JsonObject,
	key: MetadataKey,
	prefix: string,
	check: (value: unknown, field: string) => unknown = (value) => value,
): unknown {
	const names = key === 'both' ? ['meta', 'metadata'] : [key];
	const name = names.find((candidate) => candidate in holder && holder[candidate] !== undefined);
	return name === undefined ? undefined : check(holder[name], prefix + name);
}

/** Metadata the vendor types as an object (text options: the SDK's `Record<string, any>`); a queue item's may be a string (its example `"{}"`). */
const objectMeta = (strings: boolean) => (value: unknown, field: string): JsonObject | string => {
	if (isObject(value) || (strings && typeof value === 'string')) return value;
	throw badField(field, 'invalid_type', `${field} must be an object${strings ? ' (or a string)' : ''}, not ${typeName(value)}`);
};

/** The `options` both direct endpoints take (a key outside `allowed` is a 400); `checkMeta` checks the metadata. */
function moderationOptions(raw: unknown, allowed: readonly string[], metadataKey: MetadataKey, checkMeta?: (value: unknown, field: string) => unknown): ModerationOptions {
	if (raw === undefined) return {};
	if (!isObject(raw)) throw badField('options', 'invalid_type', `options must be an object, not ${typeName(raw)}`);
	rejectUnknownKeys(raw, allowed, 'options.');
	const result: ModerationOptions = {};
	result.meta = readMetadata(raw, metadataKey, 'options.', checkMeta);
	if (raw.callbackUrl !== undefined) {
		const url = optionalString(raw.callbackUrl, 'options.callbackUrl') as string;
		result.callbackUrl = httpUrl(url, 'options.callbackUrl');
	}
	if (raw.defer !== undefined) {
		if (typeof raw.defer !== 'boolean') {
			throw badField('options.defer', 'invalid_type', `options.defer must be a boolean, not ${typeName(raw.defer)}`);
		}
		result.defer = raw.defer;
	}
	result.actorId = optionalActorId(raw.actorId, 'options.actorId');
	return result;
}

const IMAGE_KEYS = ['image', 'options'] as const;
// `meta` (API reference) and `metadata` (the vendor's SDK) are both known keys: the one not read is ignored.
const IMAGE_OPTION_KEYS = ['meta', 'metadata', 'callbackUrl', 'defer', 'actorId'] as const;

/** POST /image body (API reference `image/create`); any JSON metadata, as the package sends (service-interface.md). */
export function validateImageRequest(raw: unknown, metadataKey: MetadataKey = 'both'): ImageRequest {
	const body = requireObjectBody(raw);
	rejectUnknownKeys(body, IMAGE_KEYS, '');
	const image = parseImage(body.image, 'image');
	return { image, ...moderationOptions(body.options, IMAGE_OPTION_KEYS, metadataKey) };
}

const TEXT_KEYS = ['text', 'options'] as const;
const TEXT_OPTION_KEYS = [...IMAGE_OPTION_KEYS, 'bannedWords'] as const;

/** POST /text body (API reference `text/create`): `text` at least 1 character; `options.bannedWords` a list of words. */
export function validateTextRequest(raw: unknown, metadataKey: MetadataKey = 'both'): TextRequest {
	const body = requireObjectBody(raw);
	rejectUnknownKeys(body, TEXT_KEYS, '');
	if (body.text === undefined) throw badField('text', 'missing_field', 'text is required');
	if (typeof body.text !== 'string') throw badField('text', 'invalid_type', `text must be a string, not ${typeName(body.text)}`);
	if (body.text.length < 1) throw badField('text', 'invalid_field', 'text must be at least 1 character long');
	const common = moderationOptions(body.options, TEXT_OPTION_KEYS, metadataKey, objectMeta(false));
	// moderationOptions refused an options that is not an object.
	const banned = isObject(body.options) ? body.options.bannedWords : undefined;
	return { text: body.text, ...common, bannedWords: bannedWords(banned) };
}

function bannedWords(value: unknown): string[] {
	const field = 'options.bannedWords';
	if (value === undefined) return [];
	if (!Array.isArray(value)) throw badField(field, 'invalid_type', `${field} must be a list of strings, not ${typeName(value)}`);
	return value.map((word, index) => {
		const at = `${field}[${index}]`;
		if (typeof word !== 'string') throw badField(at, 'invalid_type', `${at} must be a string, not ${typeName(word)}`);
		// A blank entry would mask nothing and is almost always an unfilled expression.
		if (word.trim() === '') throw badField(at, 'invalid_field', `${at} must not be blank`);
		return word;
	});
}

const QUEUE_KEYS = ['type', 'content', 'meta', 'metadata', 'actorId'] as const;

/** POST /queues/{queueId} body (API reference `queues/create`): `meta` an object; a string is kept as sent. */
export function validateQueueRequest(raw: unknown, metadataKey: MetadataKey = 'both'): QueueRequest {
	const body = requireObjectBody(raw);
	rejectUnknownKeys(body, QUEUE_KEYS, '');
	if (body.type === undefined) throw badField('type', 'missing_field', 'type is required (text or image)');
	if (body.type !== 'text' && body.type !== 'image') {
		throw badField('type', 'invalid_field', `type must be "text" or "image", not ${JSON.stringify(body.type)}`);
	}
	let image: ImageInput | undefined;
	if (body.type === 'image') {
		image = parseImage(body.content, 'content');
	} else {
		if (body.content === undefined) throw badField('content', 'missing_field', 'content is required');
		const content = optionalString(body.content, 'content');
		if (!content) throw badField('content', 'invalid_field', 'content must be at least 1 character long');
	}
	return {
		type: body.type,
		content: body.content as string,
		image,
		meta: readMetadata(body, metadataKey, '', objectMeta(true)) as JsonObject | string | undefined,
		actorId: optionalActorId(body.actorId, 'actorId'),
	};
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Moderation and queue item ids are UUIDs (every sample of the API reference): anything else is a 400. */
export function requireUuid(value: string, field: string): string {
	if (!UUID.test(value)) throw badField(field, 'invalid_path_parameter', `${field} must be a UUID`);
	return value;
}

/** Queue ids are the account's own names: at least 3 characters (the API reference's path minimum). */
export function requireQueueId(value: string, field = 'queueId'): string {
	if (value.length < 3) {
		throw badField(field, 'invalid_path_parameter', `${field} must be at least 3 characters long`);
	}
	return value;
}

/** `POST /__mock/queues/{queueId}/items/{itemId}/decision` body: `{ decision: "accepted" | "rejected" }`. */
export function validateDecision(raw: unknown): 'accepted' | 'rejected' {
	const body = requireObjectBody(raw);
	rejectUnknownKeys(body, ['decision'], '');
	if (body.decision === undefined) throw badField('decision', 'missing_field', 'decision is required (accepted or rejected)');
	if (body.decision !== 'accepted' && body.decision !== 'rejected') {
		throw badField('decision', 'invalid_field', `decision must be "accepted" or "rejected", not ${JSON.stringify(body.decision)}`);
	}
	return body.decision;
}

/** `POST /__mock/settings` body: `webhookUrl` (an http(s) URL, or null to clear it) and `metadataKey`. */
export function validateSettings(raw: unknown): { webhookUrl?: string | null; metadataKey?: MetadataKey } {
	const body = requireObjectBody(raw);
	rejectUnknownKeys(body, ['webhookUrl', 'metadataKey'], '');
	const settings: { webhookUrl?: string | null; metadataKey?: MetadataKey } = {};
	if (body.webhookUrl === null) settings.webhookUrl = null;
	else if (body.webhookUrl !== undefined) {
		const url = optionalString(body.webhookUrl, 'webhookUrl') as string;
		settings.webhookUrl = httpUrl(url, 'webhookUrl');
	}
	if (body.metadataKey !== undefined) {
		if (body.metadataKey !== 'meta' && body.metadataKey !== 'metadata' && body.metadataKey !== 'both') {
			throw badField('metadataKey', 'invalid_field', 'metadataKey must be "meta", "metadata" or "both"');
		}
		settings.metadataKey = body.metadataKey;
	}
	return settings;
}
