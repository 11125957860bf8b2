/**
 * The trigger's secret rule on a call (trigger/secretCheck.ts), through n8n-core's real WebhookContext and
 * real HTTP: published (mode webhook) without a Callback Secret of 16 or more characters it refuses with
 * the fix, unless Accept Callbacks Without a Secret is on; the editor's test URL (mode manual) accepts and
 * its item says that production will require one.
 */
import { randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { imageResult, result } from '@test/helpers/callbackBodies';
import { HarnessCredentialsHelper } from '@test/helpers/engine/credentials';
import { startScriptedServer, type ScriptedServer } from '@test/helpers/scripted-server';
import { postCallback, startTriggerServer, type TriggerServer, type TriggerServerOptions } from '@test/helpers/webhook-server';

import { secretRequiredMessage, TEST_URL_NOTE } from '@package/nodes/ContentModeration/inbound/secretRule';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
const servers: TriggerServer[] = [];
let service: ScriptedServer;
let credential: ICredentialDataDecryptedObject;

beforeAll(async () => {
	// The service's own result: safe = false whatever a call claims.
	service = await startScriptedServer((request) => ({
		status: 200,
		body: { ...imageResult(request.path.split('/').pop()), isSafe: false, summary: 'read back' },
	}));
});
afterAll(async () => {
	await Promise.all(servers.map(async (server) => await server.stop()));
	await service.stop();
});
beforeEach(() => {
	resetProcessState();
	reads.mockClear();
	credential = { baseUrl: service.url, accessToken: 'tok-rule-1', callbackSecret: '' };
});

async function trigger(options: Partial<TriggerServerOptions> = {}): Promise<TriggerServer> {
	const server = await startTriggerServer({ parameters: {}, credentials: credential, ...options });
	servers.push(server);
	return server;
}

const refusal = (hasCredential = true) => ({ status: 503, body: { received: false, error: { status: 503, message: secretRequiredMessage(hasCredential) } } });
const send = async (server: TriggerServer, token?: string, body: IDataObject = result(imageResult(randomUUID()))) =>
	await postCallback(server.webhookUrl, body, token === undefined ? {} : { query: { token } });

test.each([
	['no secret', ''],
	['a 15-character secret', 'cb-short/15char'],
])('published with %s in the credential: refused with the fix, one credential read for five calls', async (_name, secret) => {
	credential.callbackSecret = secret;
	const server = await trigger();
	for (let i = 0; i < 5; i++) expect(await send(server, secret === '' ? undefined : secret)).toEqual(refusal());
	expect(reads).toHaveBeenCalledTimes(1);
	expect(server.executions).toHaveLength(0);
});

test('published without a credential: refused, saying to select one', async () => {
	const server = await trigger({ credentials: undefined, parameters: { options: { acceptWithoutSecret: true } } });
	expect(await send(server)).toEqual(refusal(false));
});

test('Accept Callbacks Without a Secret: started, with the verdict read back from the service, not the one sent', async () => {
	const server = await trigger({ parameters: { fetchFullResult: false, options: { acceptWithoutSecret: true } } });
	const id = randomUUID();
	const forged = result({ ...imageResult(id), isSafe: true, summary: 'forged' });
	expect((await send(server, undefined, forged)).status).toBe(200);
	expect(server.executions[0][0].json).toMatchObject({ id, isSafe: false, summary: 'read back' });
	expect(service.requests.at(-1)?.path).toBe(`/image/${id}`);
});

test('Accept Callbacks Without a Secret: a forged result shaped as a queue item is read back too', async () => {
	const server = await trigger({ parameters: { options: { acceptWithoutSecret: true } } });
	const id = randomUUID();
	const forged = { event: 'moderation.completed', data: { id, status: 'completed', accepted: true, summary: 'forged', suggestedActions: { reject: false, review: false } } };
	expect((await send(server, undefined, forged)).status).toBe(200);
	expect(server.executions[0][0].json).toMatchObject({ id, isSafe: false, summary: 'read back' });
	expect(server.executions[0][0].json).not.toHaveProperty('accepted');
});

test.each([
	['a review decision', { event: 'queue.review.completed', data: { id: 'q-1', status: 'accepted', accepted: true, isSafe: true } }],
	['another event', { event: 'moderation.completed.v2', data: { id: 'm-1', isSafe: true } }],
	['a result without an id', { event: 'moderation.completed', data: { isSafe: true, summary: 'forged' } }],
])('Accept Callbacks Without a Secret: %s cannot be read back, so it is refused and starts nothing', async (_name, body) => {
	const server = await trigger({ parameters: { eventTypes: 'any', options: { acceptWithoutSecret: true } } });
	const answer = await send(server, undefined, body);
	expect(answer.status).toBe(401);
	expect(JSON.stringify(answer.body)).toContain('need the Callback Secret');
	expect(server.executions).toHaveLength(0);
});

test("the editor's test URL: accepted without a secret, the item saying that production will require one", async () => {
	const server = await trigger({ mode: 'manual' });
	const body = result(imageResult(randomUUID()));
	expect((await send(server, undefined, body)).status).toBe(200);
	expect(server.executions[0][0].json).toMatchObject({ ...body.data, callbackSecretNotice: TEST_URL_NOTE });
	const strong = await trigger({ mode: 'manual', credentials: { ...credential, callbackSecret: 'cb-strong/16char' } });
	expect((await send(strong, 'cb-strong/16char')).status).toBe(200);
	expect(strong.executions[0][0].json).not.toHaveProperty('callbackSecretNotice');
});
