/**
 * No secret in plain sight: for every error path of the action node, a service that echoes what it was
 * sent (the Authorization header, the callback URL with its secret) in every way it might, and the whole
 * run is searched: thrown errors walked whole (non-enumerable message/stack, errorResponse, messages,
 * cause, context), every output item, in raw, JSON-escaped, URL-encoded, HTML-escaped and base64 form.
 */
import type { INode, INodeParameters } from 'n8n-workflow';

import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { connect, moderationNode, runWorkflow, START_NODE_NAME, type NodeOptions, type WorkflowRun } from '@test/helpers/engine';
import { everyString, findLeaks } from '@test/helpers/leaks';
import { NODE_NAME } from '@test/helpers/nodeRun';
import { startScriptedServer, type ScriptedReply, type ScriptedRequest, type ScriptedServer } from '@test/helpers/scripted-server';

// Characters that JSON escapes (" \), that URL encoding changes (/ + & = space é), that HTML escapes (& ").
const ACCESS_TOKEN = 'at-7f3a"91\\q/+&=Kx';
const CALLBACK_SECRET = 'cb"e21\\r/é+&=z q-5d';
const SECRETS = [ACCESS_TOKEN, CALLBACK_SECRET];
const CALLBACK_URL = 'https://n8n.example.com/webhook/3f0c2a57/callback';

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** What the service was sent that it may echo: the Authorization header and the callback URL. */
function echoed(request: ScriptedRequest): { auth: string; callbackUrl: string } {
	const body = request.body as { options?: { callbackUrl?: string } } | undefined;
	return { auth: String(request.headers.authorization), callbackUrl: body?.options?.callbackUrl ?? '' };
}

const deferred: INodeParameters = {
	resource: 'image',
	operation: 'moderate',
	imageUrl: SAFE_IMAGE_URL,
	mode: 'deferred',
	options: { callbackUrl: CALLBACK_URL, maxRetries: 0 },
};

interface Case {
	name: string;
	answer: (request: ScriptedRequest) => ScriptedReply;
	parameters?: INodeParameters;
	status: string;
}

const cases: Case[] = [
	{
		name: '400 with a JSON body echoing the request',
		status: '400',
		answer: (request) => {
			const { auth, callbackUrl } = echoed(request);
			return {
				status: 400,
				body: { error: { message: `rejected ${auth} calling back ${callbackUrl}` }, request: { headers: request.headers, body: request.body } },
			};
		},
	},
	{
		name: '500 with a text body (raw, URL-encoded, form-encoded, base64)',
		status: '500',
		answer: (request) => {
			const { auth, callbackUrl } = echoed(request);
			const form = new URLSearchParams({ token: CALLBACK_SECRET, auth }).toString();
			const b64 = Buffer.from(auth).toString('base64');
			return { status: 500, raw: { contentType: 'text/plain', text: `failed: ${auth} ${callbackUrl} ${form} ${b64}` } };
		},
	},
	{
		name: '502 with an HTML body (HTML-escaped)',
		status: '502',
		answer: (request) => {
			const { auth, callbackUrl } = echoed(request);
			return {
				status: 502,
				raw: { contentType: 'text/html', text: `<html><p>${html(auth)}</p><a href="${html(callbackUrl)}">${html(CALLBACK_SECRET)}</a></html>` },
			};
		},
	},
	...SECRETS.flatMap((secret, which) =>
		[9, 15].map(
			(before): Case => ({
				name: `422 text body with the ${which === 0 ? 'access token' : 'callback secret'} crossing the 500-character cut (${before} chars before it)`,
				status: '422',
				answer: () => ({
					status: 422,
					raw: { contentType: 'text/plain', text: `${'x'.repeat(500 - before)}${secret} and more` },
				}),
			}),
		),
	),
	{
		name: '409 with JSON-escaped echoes inside a text body (once and twice escaped, ASCII-only)',
		status: '409',
		answer: (request) => {
			const { auth, callbackUrl } = echoed(request);
			const once = JSON.stringify({ auth, callbackUrl, secret: CALLBACK_SECRET });
			const ascii = once.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
			return { status: 409, raw: { contentType: 'text/plain', text: `${once} ${JSON.stringify(once)} ${ascii}` } };
		},
	},
	{
		name: 'Deferred and Wait: the result read answers 500 echoing the header',
		status: '500',
		parameters: { ...deferred, mode: 'deferredWait', pollInterval: 0.1, waitTimeout: 5 },
		answer: (request) =>
			request.method === 'POST'
				? { status: 202, body: { id: 'job-123' } }
				: { status: 500, body: { message: `read failed for ${echoed(request).auth}` } },
	},
];

const servers: ScriptedServer[] = [];
afterAll(async () => {
	await Promise.all(servers.map(async (server) => await server.stop()));
});

async function serve(answer: Case['answer']): Promise<ScriptedServer> {
	const server = await startScriptedServer(answer);
	servers.push(server);
	return server;
}

async function run(baseUrl: string, parameters: INodeParameters, options: NodeOptions = {}): Promise<WorkflowRun> {
	return await runWorkflow({
		nodes: [moderationNode(parameters, options)],
		connections: connect({}, START_NODE_NAME, NODE_NAME),
		credentials: { contentModerationApi: { baseUrl, accessToken: ACCESS_TOKEN, callbackSecret: CALLBACK_SECRET } },
	});
}

/** The service really got both secrets, so an echo would have carried them. */
function expectSecretsSent(server: ScriptedServer) {
	const first = server.requests[0];
	expect(first.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
	expect(echoed(first).callbackUrl).toBe(`${CALLBACK_URL}?token=${encodeURIComponent(CALLBACK_SECRET)}`);
}

describe('service errors: the thrown error, walked whole, holds neither secret in any form', () => {
	it.each(cases)('$name', async ({ answer, parameters, status }) => {
		const server = await serve(answer);
		const result = await run(server.url, parameters ?? deferred);

		expectSecretsSent(server);
		const error = result.errorOf(NODE_NAME) as (Error & { httpCode?: string; errorResponse?: unknown }) | undefined;
		expect(error?.httpCode).toBe(status);
		// The echo reached the error (redacted), so there was something to find.
		expect(everyString(error).join('\n')).toContain('***');
		expect(findLeaks(error, SECRETS)).toEqual([]);
		expect(findLeaks(result.run, SECRETS)).toEqual([]);
	});

	it.each(cases)('continue on fail, $name: the error item holds neither secret', async ({ answer, parameters }) => {
		const server = await serve(answer);
		const result = await run(server.url, parameters ?? deferred, { onError: 'continueRegularOutput' });

		expect(result.status).toBe('success');
		const [item] = result.outputOf(NODE_NAME);
		expect(item.json.error).toEqual(expect.any(String));
		expect(findLeaks(item, SECRETS)).toEqual([]);
		expect(findLeaks(result.run, SECRETS)).toEqual([]);
	});

	it('error output: the item on the error output holds neither secret', async () => {
		const server = await serve(cases[0].answer);
		const result = await run(server.url, deferred, { onError: 'continueErrorOutput' });

		const [success, errors] = result.outputsOf(NODE_NAME);
		expect(success).toHaveLength(0);
		expect(errors).toHaveLength(1);
		expect(findLeaks(result.run, SECRETS)).toEqual([]);
	});
});

describe('other paths', () => {
	it('a success answer echoing the request: the output item holds neither secret', async () => {
		const server = await serve((request) => ({
			status: 202,
			body: { id: 'job-1', echo: { ...echoed(request), headers: request.headers } },
		}));
		const result = await run(server.url, deferred);

		expectSecretsSent(server);
		const [item] = result.outputOf(NODE_NAME);
		expect(item.json.id).toBe('job-1');
		expect((item.json.echo as { callbackUrl: string }).callbackUrl).toBe(`${CALLBACK_URL}?token=***`);
		expect(findLeaks(result.run, SECRETS)).toEqual([]);
	});

	it('the connection is reset after the request was sent (network error)', async () => {
		const server = await serve(() => ({ status: 0, hangUp: true }));
		const result = await run(server.url, deferred);

		expectSecretsSent(server);
		expect(result.errorOf(NODE_NAME)?.message).toContain('Could not reach the Content Moderation Service');
		expect(findLeaks(result.run, SECRETS)).toEqual([]);
	});

	it('the service is unreachable (network error)', async () => {
		const server = await serve(() => ({ status: 200 }));
		await server.stop();
		servers.pop();
		const result = await run(server.url, deferred);
		expect(result.errorOf(NODE_NAME)?.message).toContain('Could not reach the Content Moderation Service');
		expect(findLeaks(result.run, SECRETS)).toEqual([]);
	});

	it('bad input: a Callback URL that is not a URL, with a token typed into it, is not repeated whole', async () => {
		const server = await serve(() => ({ status: 200, body: {} }));
		const typed = 'typed-tok"en/é+&';
		const callbackUrl = `n8n.example.com/webhook/x/callback?token=${encodeURIComponent(typed)}`;
		for (const onError of [undefined, 'continueRegularOutput'] as const) {
			const result = await run(server.url, { ...deferred, options: { callbackUrl, maxRetries: 0 } }, { onError });
			const error = result.errorOf(NODE_NAME);
			const [item] = onError ? result.outputOf(NODE_NAME) : [];
			const message = onError ? String(item.json.error) : String(error?.message);
			expect(message).toContain('The Callback URL carries a token');
			// The workflow's own node (`node` of the error) holds what the user typed into it; what the node built must not.
			expect(findLeaks(onError ? item : error, [...SECRETS, typed], ['node'])).toEqual([]);
		}
		expect(server.requests).toHaveLength(0);
	});

	it('bad input of another field, with the credential read: nothing to find', async () => {
		const server = await serve(() => ({ status: 200, body: {} }));
		const result = await run(server.url, { ...deferred, options: { callbackUrl: CALLBACK_URL, maxRetries: 0, meta: '{nope' } });
		expect(result.errorOf(NODE_NAME)?.message).toContain('The Metadata (JSON) is not valid JSON');
		expect(findLeaks(result.run, SECRETS)).toEqual([]);
	});
});

describe('the secret is added to the callback URL for the user', () => {
	it('Deferred: ?token=<credential secret> added, the rest of the URL kept', async () => {
		const server = await serve(() => ({ status: 202, body: { id: 'job-2' } }));
		const url = `${CALLBACK_URL}?source=cm#frag`;
		await run(server.url, { ...deferred, options: { callbackUrl: url } });
		expect(echoed(server.requests[0]).callbackUrl).toBe(
			`${CALLBACK_URL}?source=cm&token=${encodeURIComponent(CALLBACK_SECRET)}#frag`,
		);
	});

	it('a URL pasted with its own ?token= is refused before anything is sent, the token not repeated', async () => {
		const server = await serve(() => ({ status: 202, body: { id: 'job-3' } }));
		const result = await run(server.url, { ...deferred, options: { callbackUrl: `${CALLBACK_URL}?token=pasted-7` } });
		expect(result.errorOf(NODE_NAME)?.message).toContain('The Callback URL carries a token');
		expect(findLeaks(result.errorOf(NODE_NAME), ['pasted-7'], ['node'])).toEqual([]);
		expect(server.requests).toHaveLength(0);
	});

	it('no Callback Secret in the credential: the URL is sent as typed', async () => {
		const server = await serve(() => ({ status: 202, body: { id: 'job-4' } }));
		await runWorkflow({
			nodes: [moderationNode(deferred)],
			credentials: { contentModerationApi: { baseUrl: server.url, accessToken: ACCESS_TOKEN } },
		});
		expect(echoed(server.requests[0]).callbackUrl).toBe(CALLBACK_URL);
	});

	it('Immediate mode sends no callback URL at all', async () => {
		const server = await serve(() => ({ status: 200, body: { id: 'r-1', isSafe: true } }));
		await run(server.url, { ...deferred, mode: 'immediate' });
		expect(server.requests[0].body).toEqual({ image: SAFE_IMAGE_URL });
	});
});

// The node JSON is the user's own workflow; make sure the harness did not put a secret there by mistake.
test('the workflow itself holds no secret (so a leak found above was built by the node)', () => {
	const node = moderationNode(deferred) as INode;
	expect(findLeaks(node, SECRETS)).toEqual([]);
});
