/** parseCallback, the rules the trigger and Callback > Receive share, against hostile bodies. */
import { MAX_EVENT_LENGTH, MAX_ID_LENGTH, parseCallback, parseEnvelope, RESULT_EVENT } from '@package/nodes/ContentModeration/inbound/envelope';
import { MAX_DEPTH } from '@package/nodes/ContentModeration/helpers/json';

const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown;

describe('parseCallback', () => {
	it('refuses a body nested deeper than MAX_DEPTH, and reads one at the limit', () => {
		expect(parseCallback({ id: 'd1', isSafe: true, meta: nested(5000) })).toEqual({ ok: false, message: `Body is nested deeper than ${MAX_DEPTH} levels` });
		// The body, its data, then meta's arrays: MAX_DEPTH levels in all.
		expect(parseCallback({ event: RESULT_EVENT, data: { id: 'd1', meta: nested(MAX_DEPTH - 2) } })).toMatchObject({ ok: true });
		expect(parseCallback({ event: RESULT_EVENT, data: { id: 'd1', meta: nested(MAX_DEPTH - 1) } }).ok).toBe(false);
	});

	it('refuses an event name longer than MAX_EVENT_LENGTH without echoing it', () => {
		const parsed = parseCallback({ event: 'x'.repeat(MAX_EVENT_LENGTH + 1), data: { id: 'e1' } });
		expect(parsed).toEqual({ ok: false, message: `The event name is longer than ${MAX_EVENT_LENGTH} characters` });
		expect(parseCallback({ event: 'x'.repeat(MAX_EVENT_LENGTH), data: { id: 'e1' } })).toMatchObject({ ok: true });
	});

	it('reads no id that would leave /image/{id} or is too long to echo: id null, a warning', () => {
		for (const [id, why] of [['..', '"." or ".."'], [' . ', '"." or ".."'], ['x'.repeat(MAX_ID_LENGTH + 1), `longer than ${MAX_ID_LENGTH}`]]) {
			const parsed = parseCallback({ id, isSafe: true });
			expect(parsed).toMatchObject({ ok: true, body: { id: null, isSafe: true } });
			expect(parsed.ok && String(parsed.body.warning)).toContain(why);
		}
		expect(parseCallback({ id: 'x'.repeat(MAX_ID_LENGTH) })).toMatchObject({ ok: true, body: { id: 'x'.repeat(MAX_ID_LENGTH) } });
	});

	it("refuses what carries neither an id nor a result, like the trigger; keeps a sender's error apart", () => {
		expect(parseCallback({}).ok).toBe(false);
		expect(parseCallback({ event: RESULT_EVENT, data: { note: 'x' } }).ok).toBe(false);
		expect(parseCallback({ id: 'r1', error: { message: 'not ours' } })).toEqual({
			ok: true,
			event: RESULT_EVENT,
			body: { id: 'r1', callbackError: { message: 'not ours' } },
		});
	});

	it('does not read a JSON string sent as JSON a second time; raw text is read', () => {
		const text = JSON.stringify({ id: 'j1', isSafe: true });
		expect(parseCallback(text, true)).toEqual({ ok: false, message: 'Body is a JSON string: expected the callback as a JSON object' });
		expect(parseCallback(text)).toMatchObject({ ok: true, body: { id: 'j1' } });
		expect(parseEnvelope(Buffer.from(text), true)).toMatchObject({ ok: true });
	});

	it('keeps json, binary, __proto__ and constructor as plain data fields, each with its value', () => {
		const body = '{"id":"p1","isSafe":true,"json":"hello","binary":{},"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}';
		for (const enveloped of [body, `{"event":"moderation.completed","data":${body}}`]) {
			const parsed = parseCallback(JSON.parse(enveloped));
			expect(parsed.ok).toBe(true);
			if (!parsed.ok) return;
			// Neither dropped nor turned into the prototype: an own field holding what was sent.
			expect(Object.getOwnPropertyDescriptor(parsed.body, '__proto__')?.value).toEqual({ polluted: 'yes' });
			expect(Object.getOwnPropertyDescriptor(parsed.body, 'constructor')?.value).toEqual({ prototype: { polluted: 'yes' } });
			expect(Object.getPrototypeOf(parsed.body)).toBe(Object.prototype);
			expect((parsed.body as { polluted?: string }).polluted).toBeUndefined();
			expect(({} as { polluted?: string }).polluted).toBeUndefined();
			expect(parsed.body).toMatchObject({ id: 'p1', json: 'hello', binary: {} });
		}
	});
});
