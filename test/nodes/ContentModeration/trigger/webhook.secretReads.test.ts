/**
 * The trigger checks the Callback Secret from what it read last (inbound/secrets.ts), through n8n-core's
 * real WebhookContext and real HTTP: the credential is read once for a run of callbacks, an old secret is
 * trusted for 10 s after the read it came from and no longer, and a removed secret lets calls without a
 * token through once that is known.
 */
import { randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { imageResult, result } from '@test/helpers/callbackBodies';
import { HarnessCredentialsHelper } from '@test/helpers/engine/credentials';
import { postCallback, startTriggerServer, type TriggerServer } from '@test/helpers/webhook-server';

import { secretRequiredMessage } from '@package/nodes/ContentModeration/inbound/secretRule';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const SECRET = 'cb-secret/reads-71c2';
let server: TriggerServer;
let credential: ICredentialDataDecryptedObject;
const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');

beforeEach(async () => {
	resetProcessState();
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

test('a wrong token reads the credential again (a new secret may have come), a missing one does not; both refused', async () => {
	await send(SECRET);
	expect((await send('wrong')).status).toBe(401);
	expect((await send(undefined)).status).toBe(401);
	expect(reads).toHaveBeenCalledTimes(2);
	expect(server.executions).toHaveLength(1);
});

describe('on a fake clock', () => {
	let now: jest.SpyInstance<number, []>;
	let t0: number;
	beforeEach(() => {
		t0 = Date.now();
		now = jest.spyOn(Date, 'now').mockReturnValue(t0);
	});
	afterEach(() => now.mockRestore());

	test('a changed secret: the old one is accepted 9.9 s after the read with no read between, refused at 10 s', async () => {
		expect((await send(SECRET)).status).toBe(200);
		credential.callbackSecret = 'cb-secret/new-0b44';
		now.mockReturnValue(t0 + 9_900);
		expect((await send(SECRET)).status).toBe(200);
		expect(reads).toHaveBeenCalledTimes(1);
		now.mockReturnValue(t0 + 10_000);
		expect((await send(SECRET)).status).toBe(401);
		expect(reads).toHaveBeenCalledTimes(2);
		expect((await send('cb-secret/new-0b44')).status).toBe(200);
		expect(server.executions).toHaveLength(3);
	});

	test('a secret removed after publishing: calls are refused with the fix once a read shows it gone (at the latest 10 s on)', async () => {
		expect((await send(SECRET)).status).toBe(200);
		credential.callbackSecret = '';
		now.mockReturnValue(t0 + 9_900);
		expect((await send(undefined)).status).toBe(401);
		now.mockReturnValue(t0 + 10_000);
		expect(await send(undefined)).toEqual({ status: 503, body: { received: false, error: { status: 503, message: secretRequiredMessage() } } });
		expect(reads).toHaveBeenCalledTimes(2);
		expect(server.executions).toHaveLength(1);
	});
});
