import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { addSecrets, redact, redactError, redactValue } from '@package/nodes/ContentModeration/redaction/redact';
import { MASK } from '@package/nodes/ContentModeration/redaction/secretPatterns';
import { findLeaks } from '@test/helpers/leaks';

const SECRET = 'sé"c\\r/e+t &=1';
const node = { id: '1', name: 'Content Moderation', type: 'x', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

describe('redact', () => {
	test('every secret given, ignoring empty and non-string ones', () => {
		expect(redact('a-secret b-secret', ['a-secret', '', undefined, 42, 'b-secret'])).toBe('*** ***');
		expect(redact('nothing here', [])).toBe('nothing here');
	});

	test('addSecrets keeps each once', () => {
		const list: string[] = [];
		addSecrets(list, 'a', '', 'a', undefined, 'b');
		expect(list).toEqual(['a', 'b']);
	});
});

describe('redactValue and redactError', () => {
	test('redactValue copies plain data with every string redacted, keys too', () => {
		const input = { [SECRET]: [SECRET, { deep: `x${encodeURIComponent(SECRET)}` }], n: 1 };
		const output = redactValue(input, [SECRET]);
		expect(output).toEqual({ [MASK]: [MASK, { deep: `x${MASK}` }], n: 1 });
		expect(input[SECRET][0]).toBe(SECRET);
	});

	test('redactValue finds escaped forms inside strings (its quick check reads the JSON text)', () => {
		const escaped = JSON.stringify(SECRET).slice(1, -1);
		const ascii = 's\\u00e9\\"c\\\\r\\/e+t &=1';
		// Each alone, so that one found cannot carry the other into the walk.
		expect(redactValue({ a: `x${escaped}y`, c: 'clean' }, [SECRET])).toEqual({ a: `x${MASK}y`, c: 'clean' });
		expect(redactValue({ b: [`(${ascii})`], c: 'clean' }, [SECRET])).toEqual({ b: [`(${MASK})`], c: 'clean' });
		expect(redactValue({ [`k${escaped}`]: 1 }, [SECRET])).toEqual({ [`k${MASK}`]: 1 });
	});

	test('redactValue returns a value without secrets as it is', () => {
		const input = { a: 'clean', b: [1, 2] };
		expect(redactValue(input, [SECRET])).toBe(input);
	});

	test('redactError reaches message, stack, description, errorResponse, messages, context and the cause chain', () => {
		const root = new Error(`root ${SECRET}`);
		const wrapped = new NodeOperationError(node, root, { description: `d ${SECRET}` });
		const api = new NodeApiError(node, { message: `m ${SECRET}`, nested: { v: SECRET } }, { message: `top ${SECRET}` });
		(api as unknown as { cause: unknown }).cause = wrapped;
		api.context.data = { SECRET };
		expect(findLeaks(api, [SECRET]).length).toBeGreaterThan(0);

		redactError(api, [SECRET]);

		expect(findLeaks(api, [SECRET], ['node'])).toEqual([]);
		expect(api.message).toBe(`top ${MASK}`);
		expect(root.message).toBe(`root ${MASK}`);
	});
});
