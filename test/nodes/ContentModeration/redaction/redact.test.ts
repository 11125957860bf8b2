import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { addSecrets, MASK, redact, redactError, redactValue, secretForms } from '@package/nodes/ContentModeration/redaction/redact';
import { findLeaks } from '@test/helpers/leaks';

const SECRET = 'sé"c\\r/e+t &=1';
const node = { id: '1', name: 'Content Moderation', type: 'x', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

describe('redact', () => {
	test.each([
		['raw', SECRET],
		['JSON-escaped', JSON.stringify(SECRET).slice(1, -1)],
		['JSON-escaped twice', JSON.stringify(JSON.stringify(SECRET).slice(1, -1)).slice(1, -1)],
		['JSON, ASCII-only with \\/ (PHP, Python)', 's\\u00e9\\"c\\\\r\\/e+t &=1'],
		['URL-encoded', encodeURIComponent(SECRET)],
		['URL-encoded, lower-case hex', encodeURIComponent(SECRET).toLowerCase()],
		['form-encoded', new URLSearchParams({ a: SECRET }).toString().slice(2)],
		['URI-encoded (encodeURI)', encodeURI(SECRET)],
		['URL-encoded twice', encodeURIComponent(encodeURIComponent(SECRET))],
		['NFD', SECRET.normalize('NFD')],
		['JSON, ASCII-only, upper-case hex', 's\\u00E9\\"c\\\\r\\/e+t &=1'],
		['HTML-escaped', 'sé&quot;c\\r/e+t &amp;=1'],
		['base64', Buffer.from(SECRET).toString('base64')],
		['base64url', Buffer.from(SECRET).toString('base64url')],
	])('%s', (_name, form) => {
		expect(redact(`before ${form} after`, [SECRET])).toBe(`before ${MASK} after`);
	});

	test('base64url, for a secret whose base64 has + and / (base64url: - and _)', () => {
		const secret = 'cb/sé?>~secret-9';
		const url = Buffer.from(secret).toString('base64url');
		expect(url).not.toBe(Buffer.from(secret).toString('base64').replace(/=+$/, ''));
		expect(redact(`before ${url} after`, [secret])).toBe(`before ${MASK} after`);
	});

	test('a secret under MIN_MASKED_LENGTH: masked as a whole value or a URL token value, nowhere else', () => {
		const text = '/cb?token=k3y-6c&x=1, ?TOKEN=k3y-6c#f, "?token=k3y-6c", and token=k3y-6cz, k3y-6c in a text';
		expect(redact(text, ['k3y-6c'])).toBe('/cb?token=***&x=1, ?TOKEN=***#f, "?token=***", and token=k3y-6cz, k3y-6c in a text');
		expect(redact('k3y-6c', ['k3y-6c'])).toBe(MASK);
		expect(redactValue({ uri: '/cb?token=k3y%2F6c' }, ['k3y/6c'])).toEqual({ uri: '/cb?token=***' });
	});

	test('every secret given, ignoring empty and non-string ones', () => {
		expect(redact('a-secret b-secret', ['a-secret', '', undefined, 42, 'b-secret'])).toBe('*** ***');
		expect(redact('nothing here', [])).toBe('nothing here');
	});

	test('each form is listed once', () => {
		expect(secretForms('plain123')).toEqual(['plain123', 'cGxhaW4xMjM=', 'cGxhaW4xMjM']);
		expect(new Set(secretForms(SECRET)).size).toBe(secretForms(SECRET).length);
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
