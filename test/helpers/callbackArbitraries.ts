/**
 * fast-check arbitraries for what a caller sends a callback receiver (the trigger, Callback > Receive): a
 * body of any shape (the vendor's envelope, a flat result, garbage, hostile fields), its content type, and
 * the token it carries. A failing property prints its seed and path (test/helpers/propertySettings.ts).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { imageResult, textResult } from './callbackBodies';

/** Ids at the scripted service of the property tests: what it answers GET /image/{id} or /text/{id} with. */
export const SERVICE_IDS = {
	ready: ['r-1', 'r-2', 'r-3'],
	processing: ['p-1'],
	refused: ['n-404'],
	failing: ['f-500'],
} as const;

/** The scripted service's answer to a read of `path`. */
export function serviceAnswer(path: string): { status: number; body: unknown } {
	const [, kind, id = ''] = /^\/(image|text)\/([^/?#]+)$/.exec(path) ?? [];
	if ((SERVICE_IDS.ready as readonly string[]).includes(id))
		return { status: 200, body: kind === 'text' ? textResult(id) : imageResult(id) };
	if ((SERVICE_IDS.processing as readonly string[]).includes(id)) return { status: 200, body: { id, status: 'processing' } };
	if ((SERVICE_IDS.failing as readonly string[]).includes(id)) return { status: 500, body: { message: 'upstream failed' } };
	return { status: 404, body: { message: 'no such moderation' } };
}

const knownIds = [...SERVICE_IDS.ready, ...SERVICE_IDS.processing, ...SERVICE_IDS.refused, ...SERVICE_IDS.failing];

/** Ids of every kind: the service's, numbers, path tricks, too long, not strings. */
export const anyId: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom(...knownIds) },
	fc.constantFrom('.', '..', ' .. ', '%2e%2e', '../..', 'a/../../b', '..%2f', 'a/b?c#d', '', 'x'.repeat(300)),
	fc.integer(),
	fc.constantFrom(null, true, [], {}, -0.5),
	fc.string({ maxLength: 12 }),
);

const json = fc.jsonValue({ maxDepth: 3 });

/** A field a result carries, right or corrupted. */
const resultFields = fc.record(
	{
		isSafe: fc.oneof(fc.boolean(), fc.constantFrom(null, 'true', 0)),
		status: fc.constantFrom('processing', 'pending', 'completed', 'accepted'),
		suggestedActions: fc.oneof(
			fc.record({ reject: fc.boolean(), review: fc.boolean() }),
			fc.constantFrom({}, { reject: 'no' }, null),
		),
		riskScores: fc.oneof(fc.record({ overall: fc.integer({ min: 1, max: 100 }) }), fc.constantFrom({}, { overall: 'high' })),
		nsfwCategories: fc.oneof(
			fc.array(fc.record({ category: fc.constantFrom('gambling', 'adult_content'), severity: fc.integer({ min: 1, max: 100 }) }), { maxLength: 2 }),
			fc.constantFrom([{ category: 'x' }], {}, null),
		),
		description: fc.string({ maxLength: 20 }),
		hash: fc.string({ maxLength: 8 }),
		filteredContent: fc.string({ maxLength: 10 }),
		summary: fc.constantFrom('a landscape', { totalFlags: 0 }),
	},
	{ requiredKeys: [] },
);

/** Fields a hostile sender adds: item-shaped keys, its own error and warning, prototype tricks, deep nesting. */
const hostileFields = fc.record(
	{
		json: json,
		binary: fc.constant({ data: { data: 'PGgxPg==', mimeType: 'text/html', fileName: 'x.html' } }),
		error: json,
		warning: json,
		meta: fc.oneof(json, fc.integer({ min: 60, max: 80 }).map((depth) => nestedList(depth))),
		constructor: fc.constant({ prototype: { polluted: 'yes' } }),
	},
	{ requiredKeys: [] },
);

function nestedList(depth: number): unknown {
	let value: unknown = 'bottom';
	for (let level = 0; level < depth; level++) value = [value];
	return value;
}

/** The data of a callback: a complete result of a known id, only a ready id (completed by a read), or any mix of fields with any id. */
export const callbackData: fc.Arbitrary<IDataObject> = fc.oneof(
	fc.constantFrom(...SERVICE_IDS.ready).map((id) => imageResult(id)),
	fc.constantFrom(...SERVICE_IDS.ready).map((id) => ({ id })),
	fc
		.tuple(fc.option(anyId, { nil: undefined }), resultFields, hostileFields)
		.map(([id, fields, hostile]) => ({ ...hostile, ...fields, ...(id === undefined ? {} : { id }) }) as IDataObject),
);

const EVENTS = ['moderation.completed', 'moderation.completed', 'queue.review.completed', 'moderation.failed', '', ' ', 'x'.repeat(200), '__proto__'];

/** A body as its raw text: an envelope, a flat object, garbage; own `__proto__` keys as JSON.parse makes them. */
export const callbackText: fc.Arbitrary<string> = fc
	.tuple(
		fc.oneof(
			{ weight: 5, arbitrary: fc.tuple(fc.constantFrom(...EVENTS), callbackData).map(([event, data]) => JSON.stringify({ event, data })) },
			{ weight: 3, arbitrary: callbackData.map((data) => JSON.stringify(data)) },
			fc.constantFrom('', '[]', '"{\\"id\\":\\"r-1\\",\\"isSafe\\":true}"', '42', 'null', '{"event":"moderation.completed"}', 'not json', '{"event":"x","data":1}'),
		),
		fc.boolean(),
	)
	.map(([text, proto]) => (proto && text.startsWith('{"') ? `{"__proto__":{"polluted":"yes"},${text.slice(1)}` : text));

export const contentType: fc.Arbitrary<string> = fc.constantFrom('application/json', 'application/json', 'text/plain', '');

export interface TokenCase {
	query: IDataObject;
	headers: IDataObject;
	/** Whether the call carries the exact secret as one string value */
	valid: boolean;
}

/** Tokens of every shape: the right one (query or header), missing, empty, cut, extended, cased, padded, encoded, repeated. */
export function tokenCase(secret: string): fc.Arbitrary<TokenCase> {
	const wrong = fc.oneof(
		fc.constantFrom('', secret.slice(0, -1), secret.slice(1), `${secret}x`, secret.toUpperCase(), ` ${secret} `, encodeURIComponent(secret)),
		fc.string({ maxLength: 30 }),
	);
	return fc.oneof(
		fc.constant({ query: { token: secret }, headers: {}, valid: true }),
		fc.constant({ query: {}, headers: { 'x-callback-token': secret }, valid: true }),
		fc.constant({ query: {}, headers: {}, valid: false }),
		fc.constant({ query: { token: [secret, secret] }, headers: {}, valid: false }),
		wrong.map((token) => ({ query: { token }, headers: {}, valid: token === secret })),
		wrong.map((token) => ({ query: {}, headers: { 'x-callback-token': token }, valid: token === secret })),
	);
}
