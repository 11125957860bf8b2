/** The credential as the vendor's users know it, and its Test button's probe against the rebuilt mock. */
import { ContentModerationApi } from '@package/credentials/ContentModerationApi.credentials';
import { startMockService, type MockService } from '@dev/mock/server';
import { prepareWorkflow } from '@test/helpers/engine';

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
});
