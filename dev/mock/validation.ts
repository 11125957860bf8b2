import { badField, MockApiError } from './errors';

/** An image as the spec allows it: an http(s) URL or plain base64 of a PNG, JPEG, GIF or WebP. */
export type ImageInput =
	| { kind: 'url'; url: string }
	| { kind: 'base64'; bytes: Buffer; format: ImageFormat };

type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export type JsonObject = Record<string, unknown>;

interface ImageRequest {
	image: ImageInput;
	meta?: unknown;
	callbackUrl?: string;
	defer?: boolean;
	actorId?: string;
}

interface QueueRequest {
	type: 'text' | 'image';
	content: string;
	/** Parsed image when type is image */
	image?: ImageInput;
	meta?: string;
	actorId?: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

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
	if (value.length % 4 !== 0 || !BASE64.test(value)) {
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

const IMAGE_KEYS = ['image', 'options'] as const;
const IMAGE_OPTION_KEYS = ['meta', 'callbackUrl', 'defer', 'actorId'] as const;

/** POST /image body (spec 4.1). */
export function validateImageRequest(raw: unknown): ImageRequest {
	const body = requireObjectBody(raw);
	rejectUnknownKeys(body, IMAGE_KEYS, '');
	const request: ImageRequest = { image: parseImage(body.image, 'image') };
	if (body.options === undefined) return request;
	const options = body.options;
	if (!isObject(options)) throw badField('options', 'invalid_type', `options must be an object, not ${typeName(options)}`);
	rejectUnknownKeys(options, IMAGE_OPTION_KEYS, 'options.');
	if ('meta' in options) request.meta = options.meta;
	if (options.callbackUrl !== undefined) {
		const url = optionalString(options.callbackUrl, 'options.callbackUrl') as string;
		request.callbackUrl = httpUrl(url, 'options.callbackUrl');
	}
	if (options.defer !== undefined) {
		if (typeof options.defer !== 'boolean') {
			throw badField('options.defer', 'invalid_type', `options.defer must be a boolean, not ${typeName(options.defer)}`);
		}
		request.defer = options.defer;
	}
	request.actorId = optionalActorId(options.actorId, 'options.actorId');
	return request;
}

const QUEUE_KEYS = ['type', 'content', 'meta', 'actorId'] as const;

/** POST /queues/{queueId} body (spec 4.3). */
export function validateQueueRequest(raw: unknown): QueueRequest {
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
		if (!content || content.trim() === '') throw badField('content', 'invalid_field', 'content must not be empty');
	}
	return {
		type: body.type,
		content: body.content as string,
		image,
		meta: optionalString(body.meta, 'meta'),
		actorId: optionalActorId(body.actorId, 'actorId'),
	};
}

/** Path ids: the spec gives a minimum length of 3 (section 8). */
export function requirePathId(value: string, field: string): string {
	if (value.length < 3) {
		throw badField(field, 'invalid_path_parameter', `${field} must be at least 3 characters long`);
	}
	return value;
}
