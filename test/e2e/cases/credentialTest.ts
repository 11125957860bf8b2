/**
 * Case 8: the credential's Test button as n8n runs it: `POST /rest/credentials/test` on the running n8n, whose
 * CredentialsTester runs the credential's declarative `test` request and its rules. Against the mock service,
 * and against a scripted server for the statuses the mock does not answer.
 */
import { N8N_MAJOR } from '../../../dev/n8n/install';
import { CREDENTIAL_TYPE } from '../../../dev/n8n/package';
import { CREDENTIAL_ID, CREDENTIAL_NAME } from '../../../dev/n8n/stack';
import { startScriptedServer } from '../../helpers/scripted-server';
import { assert, E2eContext } from '../context';

const NOTHING_HERE = 'Nothing at this Base URL answers like the ContentMod API';

/** A well-formed id that cannot exist: a service that validates ids answers 404 for a good key. */
const PROBE_PATH = '/image/00000000-0000-4000-8000-000000000000';

/** n8n's answer to the Test button for these credential fields: `{status: 'OK'|'Error', message}`. */
async function testButton(ctx: E2eContext, data: { baseUrl: string; accessToken: string }) {
	const res = await ctx.stack.rest.request('POST', '/rest/credentials/test', {
		credentials: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME, type: CREDENTIAL_TYPE, data },
	});
	assert(res.status === 200, `POST /rest/credentials/test answered ${res.status}: ${res.text.slice(0, 300)}`);
	const result = res.json?.data as { status: string; message: string } | undefined;
	assert(result && typeof result.message === 'string', `unexpected answer: ${res.text.slice(0, 300)}`);
	assert(!result.message.includes(data.accessToken), `the message shows the token: ${result.message}`);
	return result;
}

function expectResult(got: { status: string; message: string }, status: string, message: string, what: string) {
	assert(got.status === status && got.message === message, `${what}: expected ${status} "${message}", got ${got.status} "${got.message}"`);
}

export async function credentialTest(ctx: E2eContext): Promise<string> {
	const { url, token } = ctx.mock;

	const seen = ctx.mock.requests.length;
	expectResult(await testButton(ctx, { baseUrl: url, accessToken: token }), 'OK', 'Connection successful!', 'right token');
	const probe = ctx.mock.requests.slice(seen);
	assert(probe.length === 1, `the right-token test sent ${probe.length} requests to the service`);
	assert(probe[0].method === 'GET' && probe[0].path === PROBE_PATH && probe[0].status === 404, `probe was ${JSON.stringify(probe[0])}`);
	assert(probe[0].headers.authorization === `Bearer ${token}`, 'the probe did not carry the bearer token');

	expectResult(await testButton(ctx, { baseUrl: `${url}/`, accessToken: token }), 'OK', 'Connection successful!', 'trailing slash');
	assert(ctx.mock.requests.at(-1)?.path === PROBE_PATH, `trailing slash probed ${ctx.mock.requests.at(-1)?.path}`);

	// A path the API does not serve: the right token, the mock's plain-text 404 for an unknown route.
	const prefixed = await testButton(ctx, { baseUrl: `${url}/api/v1`, accessToken: token });
	assert(prefixed.status === 'Error' && prefixed.message.startsWith(NOTHING_HERE), `wrong path prefix: got ${prefixed.status} "${prefixed.message}"`);

	if (N8N_MAJOR === 1) {
		// n8n 1.x ignores every status for the credential's ignoreHttpStatusErrors object (README, Compatibility):
		// what it answers for a wrong token is reported, not asserted, since it is n8n's limit, not a promise of ours.
		const wrong = await testButton(ctx, { baseUrl: url, accessToken: 'wrong-token-5521' });
		return `right token OK, trailing slash OK, wrong path prefix refused; n8n 1.x answers a wrong token with ${wrong.status} "${wrong.message}" (known 1.x limitation)`;
	}

	expectResult(
		await testButton(ctx, { baseUrl: url, accessToken: 'wrong-token-5521' }),
		'Error',
		'The service rejected the secret key (HTTP 401)',
		'wrong token',
	);
	assert(ctx.mock.requests.at(-1)?.status === 401, 'the service did not answer the wrong token with 401');


	// n8n's tester reports a status without a rule by the response's status text.
	const statuses: Array<[number, string, string]> = [
		[403, 'Error', 'The service rejected the secret key (HTTP 403)'],
		[400, 'Error', 'The service refused the test request (HTTP 400): check that the Base URL is the ContentMod API (https://api.contentmod.io)'],
		[500, 'Error', 'Internal Server Error'],
		[503, 'Error', 'Service Unavailable'],
		[200, 'OK', 'Connection successful!'],
	];
	let status = 0;
	let page = false;
	const fixed = await startScriptedServer(() => (page ? { status, raw: { text: '<h1>Not found</h1>', contentType: 'text/html' } } : { status, body: { message: 'x' } }));
	try {
		for (const [code, expected, message] of statuses) {
			status = code;
			expectResult(await testButton(ctx, { baseUrl: fixed.url, accessToken: 'some-token-9' }), expected, message, `HTTP ${code}`);
		}
		// A website answering every path with a page, whatever the key.
		page = true;
		for (const code of [404, 200]) {
			status = code;
			const site = await testButton(ctx, { baseUrl: fixed.url, accessToken: 'some-token-9' });
			assert(site.status === 'Error' && site.message.startsWith(NOTHING_HERE), `a web page answering ${code}: got ${site.status} "${site.message}"`);
		}
	} finally {
		await fixed.stop();
	}
	return `right token OK, wrong token 401, wrong path prefix and web pages (404, 200) refused, trailing slash OK, ${statuses.map(([c]) => c).join('/')} as expected`;
}
