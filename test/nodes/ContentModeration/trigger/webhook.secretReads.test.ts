/**
 * The trigger checks the Callback Secret from what it read last (secretChecks.ts), through n8n-core's real
 * WebhookContext and real HTTP: the credential is read once for a run of callbacks, again before a wrong
 * token is refused (so a new secret works at once), and an old secret stops within 10 s.
 */
import { randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { imageResult, result } from '@test/helpers/callbackBodies';
import { HarnessCredentialsHelper } from '@test/helpers/engine/credentials';
import { postCallback, startTriggerServer, type TriggerServer } from '@test/helpers/webhook-server';

import { deliveries } from '@package/nodes/ContentModeration/inbound/deliveries';
import { SECRET_TRUST_MS } from '@package/nodes/ContentModeration/inbound/secrets';

const SECRET = 'cb-secret/reads-71c2';
let server: TriggerServer;
let credential: ICredentialDataDecryptedObject;
const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');

beforeEach(async () => {
	deliveries.clear();
	credential = { baseUrl: 'http://127.0.0.1:9', accessToken: 'tok-reads-1', callbackSecret: SECRET };
	server = await startTriggerServer({ parameters: {}, credentials: credential });
	reads.mockClear();
});
afterEach(async () => {
	await server.stop();
});

const send = async (token: string | undefined) =>
	await postCallback(server.webhookUrl, result(imageResult(randomUUID())), token === undefined ? {} : { query: { token } });

test('20 callbacks, 10 of them at once: one credential read, every one started', async () => {
	await send(SECRET);
	await Promise.all(Array.from({ length: 10 }, async () => await send(SECRET)));
	for (let i = 0; i < 9; i++) expect((await send(SECRET)).status).toBe(200);
	expect(server.executions).toHaveLength(20);
	expect(reads).toHaveBeenCalledTimes(1);
});

test('a wrong or missing token reads the credential again, then is refused', async () => {
	await send(SECRET);
	expect((await send('wrong')).status).toBe(401);
	expect((await send(undefined)).status).toBe(401);
	expect(reads).toHaveBeenCalledTimes(3);
	expect(server.executions).toHaveLength(1);
});

test('a new secret works at once; the old one is refused 10 s after the last read', async () => {
	const now = jest.spyOn(Date, 'now');
	const t0 = Date.now();
	now.mockReturnValue(t0);
	expect((await send(SECRET)).status).toBe(200);
	credential.callbackSecret = 'cb-secret/new-0b44';
	expect((await send('cb-secret/new-0b44')).status).toBe(200);
	now.mockReturnValue(t0 + SECRET_TRUST_MS);
	expect((await send(SECRET)).status).toBe(401);
	expect(server.executions).toHaveLength(2);
	now.mockRestore();
});

test('a removed secret: calls without a token are accepted at once (read again before refusing)', async () => {
	expect((await send(SECRET)).status).toBe(200);
	credential.callbackSecret = '';
	expect((await send(undefined)).status).toBe(200);
	expect(server.executions).toHaveLength(2);
});

test('no secret in the credential: calls without a token pass with one read', async () => {
	credential.callbackSecret = '';
	for (let i = 0; i < 5; i++) expect((await send(undefined)).status).toBe(200);
	expect(reads).toHaveBeenCalledTimes(1);
});
