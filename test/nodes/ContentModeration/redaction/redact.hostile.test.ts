/** The redaction walk under hostile values: depth, prototype keys, shared parts, short secrets. */
import { redact, redactError, redactValue } from '@package/nodes/ContentModeration/redaction/redact';
import { MASK, MIN_MASKED_LENGTH } from '@package/nodes/ContentModeration/redaction/secretPatterns';
import { MAX_DEPTH } from '@package/nodes/ContentModeration/helpers/json';

const SECRET = 'cb-secret/5d1e88a0';

function nested(depth: number, bottom: unknown): unknown {
	let value = bottom;
	for (let level = 0; level < depth; level++) value = [value];
	return value;
}

describe('redactValue under hostile values', () => {
	it('walks no deeper than MAX_DEPTH: deeper parts are masked whole, nothing overflows', () => {
		const deep = { a: SECRET, meta: nested(20_000, 'x') };
		const copy = redactValue(deep, [SECRET]) as { a: string; meta: unknown };
		expect(copy.a).toBe(MASK);
		let level: unknown = copy.meta;
		let depth = 1;
		while (Array.isArray(level)) {
			level = level[0];
			depth++;
		}
		expect(level).toBe(MASK);
		expect(depth).toBe(MAX_DEPTH);
	});

	it('keeps a __proto__ key a key: no prototype changes, nothing inherited', () => {
		const body = JSON.parse(`{"id":"p1","__proto__":{"polluted":"yes"},"url":"?token=${SECRET}","n":{"__proto__":null}}`) as Record<string, unknown>;
		const copy = redactValue(body, [SECRET]);
		expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
		expect(Object.getPrototypeOf(copy.n)).toBe(Object.prototype);
		expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
		expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: 'yes' });
		expect(copy.url).toBe(`?token=${MASK}`);
	});

	it('redacts a part met twice both times, and a cycle without walking it again', () => {
		const shared = { token: SECRET };
		const cyclic: Record<string, unknown> = { token: SECRET };
		cyclic.self = cyclic;
		expect(redactValue({ a: shared, b: shared }, [SECRET])).toEqual({ a: { token: MASK }, b: { token: MASK } });
		expect(redactValue(cyclic, [SECRET])).toEqual({ token: MASK, self: MASK });
	});

	it('redactError stops at MAX_DEPTH too', () => {
		const error = Object.assign(new Error(`failed ${SECRET}`), { context: { deep: nested(20_000, SECRET) } });
		expect(redactError(error, [SECRET]).message).toBe(`failed ${MASK}`);
	});
});

describe('short secrets', () => {
	it(`below ${MIN_MASKED_LENGTH} characters only whole strings are masked: keys and texts stay readable`, () => {
		const item = { id: 'short-1', isSafe: true, description: 'a landscape', note: 's', 'S': 1 };
		expect(redactValue(item, ['s'])).toEqual({ id: 'short-1', isSafe: true, description: 'a landscape', note: MASK, S: 1 });
		expect(redact('Callback refused', ['s'])).toBe('Callback refused');
		expect(redact('s', ['s'])).toBe(MASK);
	});

	it('a case variant of a secret is not the secret; hex escapes match in either case', () => {
		expect(redact(SECRET.toUpperCase(), [SECRET])).toBe(SECRET.toUpperCase());
		expect(redact(encodeURIComponent(SECRET).toLowerCase(), [SECRET])).toBe(MASK);
	});
});
