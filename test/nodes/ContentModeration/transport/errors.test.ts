/**
 * Service failures through n8n-core's engine (errors.ts): a NodeApiError with the HTTP status and the
 * service message, never the token.
 */
import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
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
