/** redactError changes an error in place: what it reads and what it writes back. */
import { redactError } from '@package/nodes/ContentModeration/redaction/redact';
import { MASK } from '@package/nodes/ContentModeration/redaction/secretPatterns';

const SECRET = 'sk_live_0123456789abcdef';

describe('redactError in place', () => {
	test('an accessor with a getter and a setter is neither read nor written (only V8\'s "stack" is)', () => {
		let reads = 0;
		let writes = 0;
		const error = new Error(`failed ${SECRET}`) as Error & {
			computed?: string;
		};
		Object.defineProperty(error, 'computed', {
			get: () => (reads++, `computed ${SECRET}`),
			set: () => void writes++,
			enumerable: true,
		});
		redactError(error, [SECRET]);
		expect([reads, writes]).toEqual([0, 0]);
		expect(error.message).toBe(`failed ${MASK}`);
		expect(error.stack).toContain(`failed ${MASK}`);
		expect(error.stack).not.toContain(SECRET);
	});

	test('writes back only the properties it changed (a Proxy records every write)', () => {
		const writes: PropertyKey[] = [];
		const target = {
			message: `failed ${SECRET}`,
			code: 'E_FAIL',
			detail: { text: 'clean', n: 1 },
			list: ['clean'],
		};
		const recording = <T extends object>(object: T): T =>
			new Proxy(object, {
				set: (t, key, value) => (writes.push(key), Reflect.set(t, key, value)),
			});
		const error = recording({
			...target,
			detail: recording(target.detail),
			list: recording(target.list),
		});
		redactError(error, [SECRET]);
		expect(writes).toEqual(['message']);
		expect(error).toEqual({ ...target, message: `failed ${MASK}` });
	});

	test('an error without a secret is not written to at all', () => {
		const writes: PropertyKey[] = [];
		const error = new Proxy(Object.assign(new Error('failed'), { body: { text: 'clean' } }), {
			set: (t, key, value) => (writes.push(key), Reflect.set(t, key, value)),
		});
		redactError(error, [SECRET]);
		expect(writes).toEqual([]);
		expect(error.message).toBe('failed');
	});
});
