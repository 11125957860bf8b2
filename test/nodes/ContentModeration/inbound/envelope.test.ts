import {
	kindOf,
	parseEnvelope,
	RESULT_EVENT,
	REVIEW_EVENT,
} from '@package/nodes/ContentModeration/inbound/envelope';

const ID = '3f0c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const IMAGE_RESULT = { id: ID, isSafe: true, description: 'a cat', confidence: 0.9, meta: { post: 7 } };
const TEXT_RESULT = {
	id: ID,
	isSafe: false,
	content: 'you idiot',
	filteredContent: 'you *****',
	sentiment: 'negative',
	sentimentScore: -0.8,
};
const QUEUE_ITEM = { id: ID, status: 'accepted', accepted: true, type: 'text', content: 'hi', moderation: TEXT_RESULT };

describe('parseEnvelope', () => {
	it('reads the vendor envelope as sent', () => {
		expect(parseEnvelope({ event: RESULT_EVENT, data: IMAGE_RESULT })).toEqual({ ok: true, event: RESULT_EVENT, data: IMAGE_RESULT });
		expect(parseEnvelope({ event: REVIEW_EVENT, data: QUEUE_ITEM })).toEqual({ ok: true, event: REVIEW_EVENT, data: QUEUE_ITEM });
	});

	it('keeps an event name it does not know', () => {
		const parsed = parseEnvelope({ event: 'queue.item.deleted', data: { id: ID } });
		expect(parsed).toEqual({ ok: true, event: 'queue.item.deleted', data: { id: ID } });
	});

	it('reads a flat body as moderation.completed with the body as data', () => {
		expect(parseEnvelope(IMAGE_RESULT)).toEqual({ ok: true, event: RESULT_EVENT, data: IMAGE_RESULT });
		// An empty event name is no event.
		const withEmptyEvent = { ...TEXT_RESULT, event: '' };
		expect(parseEnvelope(withEmptyEvent)).toMatchObject({ ok: true, event: RESULT_EVENT });
	});

	it('reads a flat queue item as queue.review.completed with the body as data', () => {
		expect(parseEnvelope(QUEUE_ITEM)).toEqual({ ok: true, event: REVIEW_EVENT, data: QUEUE_ITEM });
	});

	it('reads raw text and bytes', () => {
		const body = JSON.stringify({ event: RESULT_EVENT, data: TEXT_RESULT });
		expect(parseEnvelope(body)).toMatchObject({ ok: true, data: TEXT_RESULT });
		expect(parseEnvelope(Buffer.from(body))).toMatchObject({ ok: true, data: TEXT_RESULT });
	});

	it('refuses an event without a data object, naming the event', () => {
		for (const data of [undefined, null, 'x', [IMAGE_RESULT], 3]) {
			const parsed = parseEnvelope({ event: RESULT_EVENT, data });
			expect(parsed).toEqual({ ok: false, event: RESULT_EVENT, message: expect.stringContaining('no data object') });
		}
	});

	it('refuses what is not a JSON object', () => {
		for (const body of ['', '  ', 'not json', '[1]', '"text"', null, 7, [IMAGE_RESULT], Buffer.from('')]) {
			const parsed = parseEnvelope(body);
			expect(parsed.ok).toBe(false);
		}
	});
});

describe('kindOf', () => {
	it('tells text results, image results and queue items apart', () => {
		expect(kindOf(TEXT_RESULT)).toBe('text');
		expect(kindOf({ id: ID, isSafe: true, content: 'hello' })).toBe('text');
		expect(kindOf({ id: ID, filteredContent: 'h***' })).toBe('text');
		expect(kindOf(IMAGE_RESULT)).toBe('image');
		expect(kindOf(QUEUE_ITEM)).toBe('queueItem');
		expect(kindOf({ id: ID, status: 'pending', type: 'image', content: 'https://x/y.png' })).toBe('queueItem');
		// The SDK's queue item has no type: accepted or moderation make it one.
		expect(kindOf({ id: ID, status: 'rejected', accepted: false })).toBe('queueItem');
	});

	it('does not guess from an id or a processing placeholder', () => {
		expect(kindOf({ id: ID })).toBeUndefined();
		// Image results may carry a sentiment (spec 2.2 plus the client library's fields).
		expect(kindOf({ id: ID, sentiment: 'neutral', sentimentScore: 50 })).toBeUndefined();
		expect(kindOf({ ...IMAGE_RESULT, sentiment: 'neutral', sentimentScore: 50 })).toBe('image');
		expect(kindOf({ id: ID, status: 'processing' })).toBeUndefined();
		expect(kindOf({})).toBeUndefined();
	});
});
