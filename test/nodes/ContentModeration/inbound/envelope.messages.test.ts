/** parseEnvelope and parseCallback (inbound/envelope.ts): the exact refusal each unusable body gets, and the ids they read. */
import {
	kindOf,
	MAX_ID_LENGTH,
	parseCallback,
	parseEnvelope,
	resultKind,
	RESULT_EVENT,
	REVIEW_EVENT,
} from '@package/nodes/ContentModeration/inbound/envelope';

const NOT_AN_OBJECT = 'Body must be a JSON object: expected {event, data} or a moderation result';

describe('parseEnvelope: what is refused, and why', () => {
	it.each([
		['', 'Empty body: expected the callback as JSON'],
		[' \n\t ', 'Empty body: expected the callback as JSON'],
		[Buffer.from('  '), 'Empty body: expected the callback as JSON'],
		['not json', 'Body is not JSON: expected the callback as JSON'],
		[Buffer.from('{"id":'), 'Body is not JSON: expected the callback as JSON'],
		['[1]', NOT_AN_OBJECT],
		['"text"', NOT_AN_OBJECT],
		[null, NOT_AN_OBJECT],
		[7, NOT_AN_OBJECT],
		[[{ id: 'a' }], NOT_AN_OBJECT],
	])('%j: %s', (body, message) => {
		expect(parseEnvelope(body)).toStrictEqual({ ok: false, message });
	});

	it('an object given as parsed JSON is read as it is; a string given so is refused', () => {
		expect(parseEnvelope({ id: 'a' }, true)).toStrictEqual({
			ok: true,
			event: RESULT_EVENT,
			data: { id: 'a' },
		});
		expect(parseEnvelope('{"id":"a"}', true)).toStrictEqual({
			ok: false,
			message: 'Body is a JSON string: expected the callback as a JSON object',
		});
	});

	it('an event name is read trimmed; one of blanks, or not a string, is no event', () => {
		expect(parseEnvelope({ event: `  ${REVIEW_EVENT}\n`, data: { id: 'q' } })).toStrictEqual({
			ok: true,
			event: REVIEW_EVENT,
			data: { id: 'q' },
		});
		const blank = { event: '   ', id: 'a' };
		expect(parseEnvelope(blank)).toStrictEqual({
			ok: true,
			event: RESULT_EVENT,
			data: blank,
		});
		const numeric = { event: 7, id: 'a' };
		expect(parseEnvelope(numeric)).toStrictEqual({
			ok: true,
			event: RESULT_EVENT,
			data: numeric,
		});
		expect(parseEnvelope({ event: `${'x'.repeat(100)}  `, data: {} })).toMatchObject({
			ok: true,
			event: 'x'.repeat(100),
		});
	});

	it("an event without a data object: refused with the event's name", () => {
		expect(parseEnvelope({ event: 'queue.item.deleted', data: 'x' })).toStrictEqual({
			ok: false,
			event: 'queue.item.deleted',
			message: 'The callback\'s event "queue.item.deleted" carries no data object',
		});
	});
});

describe('parseCallback: ids', () => {
	const warningOf = (id: unknown) => {
		const parsed = parseCallback({ id, isSafe: true });
		return parsed.ok ? parsed.body : parsed;
	};

	it('a usable id is read trimmed, a finite number as its text', () => {
		expect(warningOf('  r-1 ')).toStrictEqual({ id: 'r-1', isSafe: true });
		expect(warningOf(12)).toStrictEqual({ id: '12', isSafe: true });
	});

	it.each([
		[undefined, 'The callback carries no id'],
		[null, "The callback's id is not usable (null)"],
		[['a'], "The callback's id is not usable (a list)"],
		[{ v: 1 }, "The callback's id is not usable (a object)"],
		[true, "The callback's id is not usable (a boolean)"],
		[Number.NaN, "The callback's id is not usable (a number)"],
		[Number.POSITIVE_INFINITY, "The callback's id is not usable (a number)"],
		['   ', "The callback's id is not usable (it is empty)"],
		[
			'.',
			'The callback\'s id is not usable (it is "." or "..", which would read another address than the one asked for)',
		],
		['x'.repeat(MAX_ID_LENGTH + 1), `The callback's id is not usable (longer than ${MAX_ID_LENGTH} characters)`],
	])('%j: id null, warning %j', (id, warning) => {
		expect(warningOf(id)).toStrictEqual({ id: null, isSafe: true, warning });
	});

	it("a sender's error becomes callbackError; without one there is none", () => {
		expect(parseCallback({ id: 'a', error: 'late' })).toStrictEqual({
			ok: true,
			event: RESULT_EVENT,
			body: { id: 'a', callbackError: 'late' },
		});
		const parsed = parseCallback({ id: 'a' });
		expect(parsed).toStrictEqual({
			ok: true,
			event: RESULT_EVENT,
			body: { id: 'a' },
		});
		expect(parsed.ok && 'callbackError' in parsed.body).toBe(false);
	});
});

describe('parseCallback: no id', () => {
	const FIELDS =
		'summary, isSafe, confidence, riskScores, topics, nsfwCategories, suggestedActions, description, hash, meta, sentiment, sentimentScore, request, filteredContent, content';

	it('a result without one needs a result field: the refusal lists them', () => {
		expect(parseCallback({ note: 'x', status: 'done' })).toStrictEqual({
			ok: false,
			event: RESULT_EVENT,
			message: `Body has neither an id nor any moderation result field (${FIELDS})`,
		});
	});

	it.each(FIELDS.split(', '))('%s alone is a result field', (field) => {
		expect(parseCallback({ [field]: 0 })).toStrictEqual({
			ok: true,
			event: RESULT_EVENT,
			body: { [field]: 0, id: null, warning: 'The callback carries no id' },
		});
	});

	it('a review decision without one needs a status; other events pass with the warning', () => {
		expect(parseCallback({ event: REVIEW_EVENT, data: { accepted: true } })).toStrictEqual({
			ok: false,
			event: REVIEW_EVENT,
			message: 'The review decision has neither an id nor a status',
		});
		expect(parseCallback({ event: REVIEW_EVENT, data: { status: 'accepted' } })).toStrictEqual({
			ok: true,
			event: REVIEW_EVENT,
			body: {
				status: 'accepted',
				id: null,
				warning: 'The callback carries no id',
			},
		});
		expect(parseCallback({ event: 'queue.item.deleted', data: {} })).toStrictEqual({
			ok: true,
			event: 'queue.item.deleted',
			body: { id: null, warning: 'The callback carries no id' },
		});
	});
});

describe('kindOf: each sign on its own', () => {
	it.each([
		[{ status: 'pending', moderation: {} }, 'queueItem'],
		[{ status: 'pending', accepted: false }, 'queueItem'],
		[{ status: 'pending', type: 'text', content: 5 }, 'queueItem'],
		[{ status: 'pending', type: 'text' }, undefined],
		[{ status: 'pending', content: 'hi' }, undefined],
		[{ status: 'pending', moderation: 'x', accepted: 'yes' }, undefined],
		[{ status: 1, accepted: true }, undefined],
		[{ status: 'accepted', accepted: true, isSafe: true }, undefined],
		[{ status: 'accepted', accepted: true, isSafe: true, original: 'x' }, 'text'],
		[{ original: 'x' }, 'text'],
		[{ filteredContent: null }, 'text'],
		[{ content: 'hi' }, 'text'],
		[{ content: 5 }, undefined],
		[{ content: 'hi', description: 'd' }, 'text'],
		[{ description: 'd' }, 'image'],
		[{ description: null }, 'image'],
	])('%j: %s', (data, kind) => {
		expect(kindOf(data as never)).toBe(kind);
		// A moderation.completed is never a queue item: a result whose data shows no kind (read as either).
		expect(resultKind(data as never)).toBe(kind === 'queueItem' ? undefined : kind);
	});
});
