/** The credential as the vendor's users know it, and its Test button's probe against the rebuilt mock. */
import { ContentModerationApi } from '@package/credentials/ContentModerationApi.credentials';
import { startMockService, type MockService } from '@dev/mock/server';
import { testCredential } from '@test/helpers/credentialTester';
import { prepareWorkflow } from '@test/helpers/engine';
import { startScriptedServer } from '@test/helpers/scripted-server';

const credential = new ContentModerationApi();
const field = (name: string) => credential.properties.find((p) => p.name === name);

let mock: MockService;
beforeAll(async () => {
	mock = await startMockService({ token: 'right-key-8841' });
});
afterAll(async () => await mock?.stop());

describe('Content Moderation API credential', () => {
	it('labels the bearer token Secret Key, keeping the saved field name accessToken', () => {
		expect(field('accessToken')).toMatchObject({ displayName: 'Secret Key', typeOptions: { password: true } });
		expect(field('accessToken')?.description).toContain('secret key from the ContentMod dashboard');
		expect(field('accessToken')?.description).toContain('public key is not needed');
	});

	it('appears as "Content Moderation API", linking to the setup section of the README', () => {
		expect(credential.displayName).toBe('Content Moderation API');
		expect(credential.documentationUrl).toBe('https://www.npmjs.com/package/n8n-nodes-content-moderation#credentials');
	});

	it('cannot be saved without a Base URL and a Secret Key; the key starts empty and is masked', () => {
		expect(field('baseUrl')?.required).toBe(true);
		expect(field('accessToken')).toMatchObject({ required: true, default: '' });
	});

	it('keeps the Callback Secret under the name the node reads (callbackSecret), masked, empty and optional', () => {
		// The node and the trigger read credentials.callbackSecret; moderating without callbacks needs none.
		expect(field('callbackSecret')).toMatchObject({ type: 'string', typeOptions: { password: true }, default: '' });
		expect(field('callbackSecret')?.required).toBeFalsy();
	});

	it('adds the Secret Key as a bearer token to every request, keeping its other headers; a missing key sends an empty one', async () => {
		const request = { url: '/text', method: 'POST' as const, headers: { 'content-type': 'application/json' } };
		// A function here (not n8n's generic form), so that it is called with the credential's values.
		const authenticate = credential.authenticate as unknown as (credentials: object, options: typeof request) => Promise<typeof request>;
		expect(typeof authenticate).toBe('function');
		expect(await authenticate({ accessToken: 'key-1' }, request)).toEqual({
			...request,
			headers: { 'content-type': 'application/json', Authorization: 'Bearer key-1' },
		});
		// A credential saved without the key: the service refuses it (401), no made-up token is sent.
		const { headers } = await authenticate({}, request);
		expect(headers).toEqual({ 'content-type': 'application/json', Authorization: 'Bearer ' });
	});

	it('defaults the Base URL to the vendor API', () => {
		expect(field('baseUrl')?.default).toBe('https://api.contentmod.io');
	});

	it('probes a well-formed id that cannot exist: the rebuilt mock answers 404 for the right key, 401 for a wrong one', async () => {
		const url = String(credential.test.request.url);
		expect(url).toBe('/image/00000000-0000-4000-8000-000000000000');
		const probe = async (key: string) =>
			(await fetch(`${mock.url}${url}`, { headers: { authorization: `Bearer ${key}` } })).status;
		expect(await probe('right-key-8841')).toBe(404);
		expect(await probe('wrong-key')).toBe(401);
	});

	it('fails a 400 with a message that says what to check', () => {
		const rule = credential.test.rules?.find((r) => r.type === 'responseCode' && r.properties.value === 400);
		expect(rule?.properties.message).toContain('HTTP 400');
		expect(rule?.properties.message).toContain('Base URL');
		expect(credential.test.request.ignoreHttpStatusErrors).toMatchObject({ except: expect.arrayContaining([400, 401, 403]) });
	});

	it('never sends a user name or password in the Base URL: the test fails naming what to remove', async () => {
		// The test's baseURL as n8n resolves it: n8n-workflow's expression engine with $credentials.
		const { workflow } = await prepareWorkflow({ nodes: [] });
		const resolve = (baseUrl: string) =>
			workflow.expression.getParameterValue(String(credential.test.request.baseURL), null, 0, 0, 'Start', [], 'manual', {
				$credentials: { baseUrl },
			} as never);
		expect(resolve(' https://api.contentmod.io// ')).toBe('https://api.contentmod.io');
		expect(resolve('https://api.example.com/@team')).toBe('https://api.example.com/@team');
		for (const withUser of ['http://moderator:pw-5150@127.0.0.1:4010', 'https://moderator@api.example.com/', 'https:///u:pw-5150@h', 'http:\\u:pw-5150@h', 'http:/u:pw-5150@h', 'HTTP://u:pw@h']) {
			expect(resolve(withUser)).toBe('http://remove-user-and-password-from-the-base-url.invalid');
		}
	});

	describe("its Test button as n8n's credential tester runs it (n8n-core's RoutingNode, n8n's rules)", () => {
		const NOTHING_HERE = /^Nothing at this Base URL answers like the ContentMod API: .*https:\/\/api\.contentmod\.io, with no path such as \/api\/v1/;
		const key = 'right-key-8841';

		it('passes the right key, refuses a wrong one by its 401', async () => {
			expect(await testCredential({ baseUrl: mock.url, accessToken: key })).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(await testCredential({ baseUrl: mock.url, accessToken: 'wrong-key' })).toEqual({
				status: 'Error',
				message: 'The service rejected the secret key (HTTP 401)',
			});
		});

		it('refuses a wrong path prefix with the right key: nothing is served there (a plain 404, not the API JSON one)', async () => {
			const result = await testCredential({ baseUrl: `${mock.url}/api/v1/`, accessToken: key });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(NOTHING_HERE);
		});

		it.each([
			['404 to everything (a web page)', 404],
			['200 to everything (a single-page site)', 200],
		])('refuses a website that answers %s, whatever the key', async (_case, status) => {
			const site = await startScriptedServer(() => ({ status, raw: { text: '<!doctype html><h1>Not here</h1>', contentType: 'text/html' } }));
			try {
				const result = await testCredential({ baseUrl: site.url, accessToken: 'wrong-key' });
				expect(result.status).toBe('Error');
				expect(result.message).toMatch(NOTHING_HERE);
				expect(site.requests.map((r) => r.path)).toEqual(['/image/00000000-0000-4000-8000-000000000000']);
			} finally {
				await site.stop();
			}
		});

		it('does not send the key along a redirect to another origin', async () => {
			const other = await startScriptedServer(() => ({ status: 404, body: { error: { message: 'Not found' } } }));
			const moved = await startScriptedServer((r) => ({ status: 307, headers: { location: `${other.url}${r.path}` } }));
			try {
				await testCredential({ baseUrl: moved.url, accessToken: key });
				expect(moved.requests[0].headers.authorization).toBe(`Bearer ${key}`);
				expect(other.requests).toHaveLength(1);
				expect(other.requests[0].headers.authorization).toBeUndefined();
			} finally {
				await moved.stop();
				await other.stop();
			}
		});
	});
});

