/**
 * Service failures (errors.ts), directly and through n8n-core's engine: a NodeApiError with the HTTP status
 * and the service message, never the token.
 */
import type { IHttpRequestMethods } from 'n8n-workflow';

import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { addNote, apiError, networkError } from '@package/nodes/ContentModeration/transport/errors';
import { contentModerationNode } from '@test/helpers/fixtures';
import { expectNoToken, nodeError, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';
import { startScriptedServer } from '@test/helpers/scripted-server';

const mock = useMock();

describe('service failures: NodeApiError with the HTTP status and the service message, no token', () => {
	it('401 for a wrong token', async () => {
		const wrongToken = 'wrong-token-5d1e9a';
		const run = await mock.run({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL }, undefined, {
			accessToken: wrongToken,
		});
		const error = nodeError(run);
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('401');
		expect(error.message).toContain('Invalid access token');
		expect(error.description).toContain('Secret Key');
		expect(mock.service.requests[0].headers.authorization).toBe(`Bearer ${wrongToken}`);
		expectNoToken(run, wrongToken);
		expectNoToken(run, SECRET_TOKEN);
	});

	it('404 for an unknown id', async () => {
		const unknown = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
		const run = await mock.run({ resource: 'text', operation: 'get', textId: unknown });
		const error = nodeError(run);
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('404');
		expect(error.message).toContain(`No text moderation with id ${unknown}`);
		expectNoToken(run, SECRET_TOKEN);
	});

	it('404 names the Base URL as a possible cause besides the id: a path prefix under which nothing is served', async () => {
		const baseUrl = `${mock.service.url}/api/v1`;
		const run = await mock.run({ resource: 'text', operation: 'get', textId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b' }, undefined, { baseUrl });
		const error = nodeError(run);
		expect(error.httpCode).toBe('404');
		expect(error.description).toContain(`Base URL of the Content Moderation API credential (${baseUrl})`);
		expect(error.description).toContain('no path such as /api/v1');
		expect(error.description).toContain('the id (or Queue ID) is wrong');
		expectNoToken(run, SECRET_TOKEN);
	});

	it('500 from the service (a submission is not retried on 500)', async () => {
		const server = await startScriptedServer(() => ({
			status: 500,
			body: { error: { status: 500, code: 'internal', message: 'Moderation backend exploded' } },
		}));
		try {
			const run = await mock.run({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL }, undefined, {
				baseUrl: server.url,
			});
			const error = nodeError(run);
			expect(error.name).toBe('NodeApiError');
			expect(error.httpCode).toBe('500');
			expect(error.message).toContain('Moderation backend exploded');
			expect(server.requests).toHaveLength(1);
			expect(server.requests[0].headers.authorization).toBe(`Bearer ${SECRET_TOKEN}`);
			expectNoToken(run, SECRET_TOKEN);
		} finally {
			await server.stop();
		}
	});

	it('an unreachable service names the Base URL and the network code, no token', async () => {
		// A port that was just free: nothing listens there.
		const server = await startScriptedServer(() => ({ status: 200, body: {} }));
		const closedUrl = server.url;
		await server.stop();
		const run = await mock.run(
			{ resource: 'image', operation: 'get', imageId: 'abc123', options: { maxRetries: 0 } },
			undefined,
			{ baseUrl: closedUrl },
		);
		const error = nodeError(run);
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe(`Could not reach the Content Moderation Service at ${closedUrl}`);
		expect(error.description).toContain('ECONNREFUSED');
		expect(error.description).toContain('Base URL');
		expectNoToken(run, SECRET_TOKEN);
	});

	it('a service message echoing the token is redacted', async () => {
		const server = await startScriptedServer((request) => ({
			status: 400,
			body: { error: { status: 400, code: 'bad', message: `bad header ${String(request.headers.authorization)}` } },
		}));
		try {
			const run = await mock.run({ resource: 'text', operation: 'get', textId: 'abc' }, undefined, {
				baseUrl: server.url,
			});
			expect(nodeError(run).httpCode).toBe('400');
			expectNoToken(run, SECRET_TOKEN);
		} finally {
			await server.stop();
		}
	});
});

describe('apiError: the status, the service\'s own message and a hint, the request named', () => {
	const BASE = 'https://cm.example';
	const answered = (status: number, body: unknown, secrets: string[] = []) =>
		apiError(contentModerationNode, status, body, { method: 'POST', path: '/image', itemIndex: 3 }, BASE, secrets);
	const messageOf = (body: unknown) => answered(400, body).message.replace('The Content Moderation Service answered 400', '');

	it.each([
		[400, 'The service rejected the request. Check the field it names.'],
		[401, 'Check the Secret Key of the Content Moderation API credential.'],
		[403, 'Check the Secret Key of the Content Moderation API credential.'],
		[404, `the Base URL of the Content Moderation API credential (${BASE}) is not the API's root`],
		[429, 'lower Request Options > Max Concurrency'],
		[500, 'The service failed. Try again later.'],
		[503, 'The service failed. Try again later.'],
		[300, 'which only a read follows'],
		[307, `Set the Base URL of the Content Moderation API credential (${BASE}) to the address`],
		[399, 'The service answered with a redirect'],
	])('%i: its hint, then the request', (status, hint) => {
		const error = answered(status, {});
		expect(error.description).toContain(hint);
		expect(error.description).toMatch(/\.\s\(POST \/image\)$/);
		expect([error.httpCode, error.context.itemIndex, error.message]).toEqual([String(status), 3, `The Content Moderation Service answered ${status}`]);
	});

	it.each<[IHttpRequestMethods, string]>([
		['GET', 'a redirect that leads nowhere'],
		['DELETE', 'which only a read follows'],
	])('a 3xx of a %s: the hint for its kind of request', (method, hint) => {
		const error = apiError(contentModerationNode, 302, {}, { method, path: '/text/a', itemIndex: 0 }, BASE, []);
		expect(error.description).toContain(hint);
		expect(error.description).toContain(`Set the Base URL of the Content Moderation API credential (${BASE})`);
	});

	it.each([299, 418, 499])('%i: no hint, the request alone', (status) => {
		expect(answered(status, {}).description).toBe('POST /image');
	});

	it.each([
		[{ error: { message: 'nested' } }, ': nested'],
		[{ error: 'flat', message: 'not this' }, ': flat'],
		[{ error: null, message: 'top' }, ': top'],
		[{ error: { code: 7 }, message: 'top' }, ': top'],
		[{ error: 7, message: 5 }, ''],
		['  plain text  ', ': plain text'],
		['   ', ''],
		[null, ''],
		[undefined, ''],
	])('the service message of %j', (body, message) => {
		expect(messageOf(body)).toBe(message);
	});

	it('a long text answer is cut to 500 characters; an object answer is kept as the error response', () => {
		expect(messageOf('x'.repeat(600))).toBe(`: ${'x'.repeat(500)}`);
		expect(answered(400, { error: { message: 'nested' } }).errorResponse).toEqual({ error: { message: 'nested' } });
	});

	it('redacts the secrets from the message, the request and the Base URL', () => {
		const secret = 'sk-secret-91fe2a7c';
		const error = apiError(contentModerationNode, 404, { message: `bad ${secret}` }, { method: 'GET', path: `/text/${secret}` }, `https://${secret}@cm.example`, [secret]);
		expect(JSON.stringify([error.message, error.description, error.errorResponse])).not.toContain(secret);
		expect(error.message).toBe('The Content Moderation Service answered 404: bad ***');
	});
});

describe('networkError: no answer at all', () => {
	const failed = (error: unknown) => networkError(contentModerationNode, error, { method: 'GET', path: '/a', itemIndex: 1 }, 'http://cm.test', []);

	it('names the Base URL, and the network code when there is one', () => {
		const refused = failed(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }));
		expect([refused.message, refused.context.itemIndex]).toEqual(['Could not reach the Content Moderation Service at http://cm.test', 1]);
		expect(refused.description).toBe('ECONNREFUSED: Check the Base URL of the Content Moderation API credential and that the service is reachable.');
		expect(refused.errorResponse).toEqual({ networkErrorCode: 'ECONNREFUSED' });
		const unknown = failed(new Error('gone'));
		expect(unknown.description).toBe('Check the Base URL of the Content Moderation API credential and that the service is reachable.');
		expect(unknown.errorResponse).toEqual({ networkErrorCode: 'unknown' });
	});
});

describe('addNote', () => {
	const withDescription = (description?: string) =>
		Object.assign(networkError(contentModerationNode, new Error('x'), { method: 'GET', path: '/a' }, 'http://cm.test', []), { description });

	it('appends a note to the description, or is the description; no note changes nothing', () => {
		const error = withDescription('Was.');
		expect(addNote(error, 'Retried.')).toBe(error);
		expect(error.description).toBe('Was. Retried.');
		expect(addNote(withDescription(undefined), 'Retried.').description).toBe('Retried.');
		expect(addNote(withDescription('Was.'), undefined).description).toBe('Was.');
		expect(addNote(withDescription('Was.'), '').description).toBe('Was.');
	});
});
