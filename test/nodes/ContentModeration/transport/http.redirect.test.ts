/**
 * Redirects (a moved Base URL, a proxy's rule) through n8n-core's own HTTP helper: a GET to another origin goes
 * without the Secret Key, to the same origin with it; a POST is not sent on at all (its body holds the content and
 * a Callback URL with its secret): the item fails naming the redirect.
 */
import { nodeError, output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';
import { imageResult } from '@test/helpers/callbackBodies';
import { SAFE_IMAGE_URL } from '@dev/mock/fixtures';

const mock = useMock();
let other: ScriptedServer;
let redirecting: ScriptedServer;

beforeAll(async () => {
	other = await startScriptedServer((request) =>
		request.headers.authorization === undefined
			? { status: 401, body: { error: { message: 'no key' } } }
			: { status: 200, body: imageResult('m-1') },
	);
	// Same origin: /moved/... answers; anything else goes to the other server.
	redirecting = await startScriptedServer((request) =>
		request.path.startsWith('/moved/')
			? { status: 200, body: imageResult('m-1') }
			: { status: 307, headers: { location: `${request.path === '/image/same' ? '' : other.url}/moved${request.path}` } },
	);
});
afterAll(async () => {
	await redirecting.stop();
	await other.stop();
});

const getImage = async (imageId: string) =>
	await mock.run({ resource: 'image', operation: 'get', imageId }, [{ json: {} }], { baseUrl: redirecting.url });

it('a redirect to another origin reaches it without the Secret Key (the item fails with its 401)', async () => {
	const run = await getImage('elsewhere');
	expect(other.requests).toHaveLength(1);
	expect(other.requests[0].headers.authorization).toBeUndefined();
	expect(JSON.stringify(other.requests[0].headers)).not.toContain(SECRET_TOKEN);
	expect(nodeError(run).message).toContain('401');
});

it('a redirect within the same origin keeps it', async () => {
	const run = await getImage('same');
	expect(run.status).toBe('success');
	expect(output(run)[0].json.isSafe).toBe(true);
	const moved = redirecting.requests.find((r) => r.path === '/moved/image/same');
	expect(moved?.headers.authorization).toBe(`Bearer ${SECRET_TOKEN}`);
});

it('a POST answered with a redirect is not sent on: the item fails with the status and what to set', async () => {
	const before = other.requests.length;
	const callbackUrl = 'https://n8n.example.com/webhook/cb';
	const parameters = { resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, mode: 'deferred', options: { callbackUrl } };
	const run = await mock.run(parameters, [{ json: {} }], { baseUrl: redirecting.url });
	expect(other.requests).toHaveLength(before);
	const error = nodeError(run);
	expect(error.message).toContain('307');
	expect(error.description).toMatch(/^The service answered with a redirect, which only a read follows/);
	expect(error.description).toContain(`(${redirecting.url})`);
});
