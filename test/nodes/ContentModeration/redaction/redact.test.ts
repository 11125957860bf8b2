import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { addSecrets, redact, redactError, redactValue } from '@package/nodes/ContentModeration/redaction/redact';
import { MAX_DEPTH } from '@package/nodes/ContentModeration/helpers/json';
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

	test('a Buffer beside a secret stays a Buffer, with its bytes (a value and an error)', () => {
		const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
		const copy = redactValue({ token: SECRET, image: bytes, list: [bytes] }, [SECRET]);
		expect(copy.token).toBe(MASK);
		expect(Buffer.isBuffer(copy.image)).toBe(true);
		expect(copy.image).toEqual(bytes);
		expect(Buffer.isBuffer(copy.list[0])).toBe(true);
		const error = Object.assign(new Error(`failed ${SECRET}`), { body: bytes });
		redactError(error, [SECRET]);
		expect(error.message).toBe(`failed ${MASK}`);
		expect(error.body).toBe(bytes);
		expect(Buffer.isBuffer(error.body)).toBe(true);
	});

	test('redactError leaves error.node as it was: the workflow\'s own parameters, even holding the secret', () => {
		const own = { ...node, parameters: { text: `typed ${SECRET}`, options: { callbackUrl: `https://x.test/cb?token=${encodeURIComponent(SECRET)}` } } };
		const before = structuredClone(own);
		const error = new NodeOperationError(own, `failed ${SECRET}`, { description: `d ${SECRET}` });
		redactError(error, [SECRET]);
		expect([error.message, error.description]).toEqual([`failed ${MASK}`, `d ${MASK}`]);
		expect(error.node).toBe(own);
		expect(own).toEqual(before);
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

describe('redactError leaves alone what is not its to change', () => {
	const SECRET_TEXT = 'sk_live_0123456789abcdef';

	test("the error's node (the workflow's own parameters) is neither walked nor replaced", () => {
		const workflowNode = { name: 'Moderate', parameters: { text: `typed ${SECRET_TEXT}` } };
		const error = Object.assign(new Error(`failed ${SECRET_TEXT}`), { node: workflowNode });
		redactError(error, [SECRET_TEXT]);
		expect(error.node).toBe(workflowNode);
		expect(workflowNode.parameters.text).toBe(`typed ${SECRET_TEXT}`);
		expect(error.message).toBe(`failed ${MASK}`);
	});

	test('a getter is not called; a cycle stays a cycle', () => {
		let reads = 0;
		const error = new Error(`failed ${SECRET_TEXT}`) as Error & { cause?: unknown; computed?: string };
		Object.defineProperty(error, 'computed', { get: () => (reads++, SECRET_TEXT), enumerable: true });
		error.cause = error;
		redactError(error, [SECRET_TEXT]);
		expect(reads).toBe(0);
		expect(error.cause).toBe(error);
		expect(error.message).toBe(`failed ${MASK}`);
	});

	test('a secret nested deeper than MAX_DEPTH is masked whole, one level above is walked', () => {
		const nest = (depth: number): Record<string, unknown> => {
			const root: Record<string, unknown> = {};
			let current = root;
			for (let i = 1; i < depth; i++) current = (current.next = {}) as Record<string, unknown>;
			current.text = `x ${SECRET_TEXT}`;
			return root;
		};
		const at = (value: Record<string, unknown>, depth: number): unknown => {
			let current: unknown = value;
			for (let i = 1; i < depth; i++) current = (current as Record<string, unknown>).next;
			return current;
		};
		// The error is depth 0, its `data` depth 1: an object at depth d is walked when d < MAX_DEPTH.
		const shallow = Object.assign(new Error('e'), { data: nest(MAX_DEPTH - 1) });
		redactError(shallow, [SECRET_TEXT]);
		expect((at(shallow.data, MAX_DEPTH - 1) as Record<string, unknown>).text).toBe(`x ${MASK}`);
		const deep = Object.assign(new Error('e'), { data: nest(MAX_DEPTH) });
		redactError(deep, [SECRET_TEXT]);
		expect(at(deep.data, MAX_DEPTH)).toBe(MASK);
	});
});
