/**
 * A 503 from something in front of the service (a proxy's page: no Retry-After, no JSON body) may come
 * after the service read the request: through the real engine, each POST operation sends it once and the
 * item fails saying so and how to check; the service's own refusals (Retry-After or a JSON body) and GETs
 * are still retried.
 */
import type { INodeParameters } from 'n8n-workflow';

import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { pairedIndex } from '@test/helpers/fixtures';
import { nodeError, useMock } from '@test/helpers/nodeRun';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '@test/helpers/scripted-server';

const PROXY_503: ScriptedReply = { status: 503, raw: { text: 'upstream connect error or disconnect/reset before headers', contentType: 'text/plain' } };
const OK: ScriptedReply = { status: 200, body: { id: 'a1b2c3', isSafe: true, status: 'processing' } };

const POSTS: Array<[string, INodeParameters]> = [
	['Image > Moderate', { resource: 'image', operation: 'moderate', inputType: 'url', imageUrl: 'https://img.test/cat.jpg', mode: 'immediate' }],
	['Text > Moderate', { resource: 'text', operation: 'moderate', text: 'hello' }],
	['Queue > Add Item', { resource: 'queue', operation: 'addItem', queueId: 'comments', contentType: 'text', text: 'hello' }],
];

let server: ScriptedServer | undefined;
afterEach(async () => {
	await server?.stop();
	server = undefined;
});

async function run(replies: ScriptedReply[], parameters: INodeParameters, onError?: 'continueErrorOutput') {
	server = await startScriptedServer((_req, i) => replies[Math.min(i, replies.length - 1)]);
	return await runWorkflow({
		nodes: [moderationNode(parameters, onError ? { onError } : {})],
		credentials: { contentModerationApi: { baseUrl: server.url, accessToken: 'secret-token' } },
	});
}

describe('a proxy 503 on a POST', () => {
	it.each(POSTS)('%s: one POST, and the error says it may have been acted on and how to check', async (_name, parameters) => {
		const result = await run([PROXY_503, OK], parameters);
		expect(server!.requests.map((r) => r.method)).toEqual(['POST']);
		const error = result.errorOf('Content Moderation') as (Error & { description?: string }) | undefined;
		expect(error?.message).toContain('answered 503');
		expect(error?.description).toContain('neither a Retry-After nor a JSON body');
		expect(error?.description).toContain('may have been acted on');
		expect(error?.description).toMatch(/read it by its id .*or look in the ContentMod dashboard/);
	});

	it.each(['text/plain', 'text/html'])('a %s page that looks like JSON is a proxy\'s too: one POST', async (contentType) => {
		// n8n's helper parses JSON-looking text whatever its content type.
		const page: ScriptedReply = { status: 503, raw: { text: '{"message":"upstream request timeout"}', contentType } };
		await run([page, OK], POSTS[1][1]);
		expect(server!.requests.map((r) => r.method)).toEqual(['POST']);
	});

	it('under On Error: Continue (using error output), one error item paired to its input', async () => {
		const result = await run([PROXY_503, OK], POSTS[1][1], 'continueErrorOutput');
		const [ok, errors] = result.outputsOf('Content Moderation');
		expect(ok).toEqual([]);
		expect(errors.map(pairedIndex)).toEqual([0]);
		expect(server!.requests).toHaveLength(1);
	});
});

describe('what is still retried', () => {
	it.each([
		['a 503 with Retry-After', { status: 503, headers: { 'retry-after': '0' }, raw: PROXY_503.raw }],
		['a 503 with a JSON body', { status: 503, body: { error: { status: 503, message: 'unavailable' } } }],
		['a 429 without either', { status: 429, raw: { text: 'slow down', contentType: 'text/plain' } }],
	] as Array<[string, ScriptedReply]>)('%s: the POST is sent again', async (_name, reply) => {
		const result = await run([reply, OK], POSTS[0][1]);
		expect(result.status).toBe('success');
		expect(server!.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
	});

	it('a GET answered by a proxy 503 is read again', async () => {
		const result = await run([PROXY_503, OK], { resource: 'text', operation: 'get', textId: 'a1b2c3' });
		expect(result.status).toBe('success');
		expect(server!.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
	});
});

describe('the mock: a proxy answering 503 after the service acted (proxyFaultRate)', () => {
	const mock = useMock({ proxyFaultRate: 1 });

	it('Queue > Add Item: the service added the item once, the node sent it once and says to check', async () => {
		const run = await mock.run(POSTS[2][1]);
		const posts = mock.service.requests.filter((r) => r.method === 'POST');
		expect(posts.map((r) => r.status)).toEqual([503]);
		expect(mock.service.submissions.size).toBe(1);
		expect(nodeError(run).description).toContain('may have been acted on');
	});
});
