/**
 * Calls without the right token are cheap to refuse (the trigger's secret check, inbound/secrets.ts),
 * through n8n-core's real WebhookContext and real HTTP: no token while a secret is known costs no
 * credential read, wrong tokens re-read at most once a second per trigger, and a refused caller holds
 * no completion back.
 */
import { randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { imageResult, result } from '@test/helpers/callbackBodies';
import { HarnessCredentialsHelper } from '@test/helpers/engine/credentials';
import { postCallback, startTriggerServer, type TriggerServer } from '@test/helpers/webhook-server';

import { waitFor } from '@dev/wait';
import { systemClock } from '@package/nodes/ContentModeration/helpers/clock';
import { deliveries } from '@package/nodes/ContentModeration/inbound/deliveries';
import { secretCache } from '@package/nodes/ContentModeration/inbound/secrets';

const SECRET = 'cb-secret/abuse-4e7b';
const readCredential = HarnessCredentialsHelper.prototype.getDecrypted;
const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
let server: TriggerServer;
let credential: ICredentialDataDecryptedObject;

beforeEach(async () => {
	deliveries.clear();
	credential = { baseUrl: 'http://127.0.0.1:9', accessToken: 'tok-abuse-1', callbackSecret: SECRET };
	server = await startTriggerServer({ parameters: {}, credentials: credential });
	reads.mockClear();
	reads.mockImplementation(readCredential);
});
afterEach(async () => {
	await server.stop();
});

const send = async (token: string | undefined, body: unknown = result(imageResult(randomUUID()))) =>
	await postCallback(server.webhookUrl, body, token === undefined ? {} : { query: { token } });

test('20 calls with a wrong token and 20 without one within a second, from cold: refused, at most 2 credential reads', async () => {
	// The clock of the secret cache: the second between reads ends only once every call has arrived (on a
	// loaded machine 40 calls through the harness may take longer than a real second).
	const arrived = jest.spyOn(secretCache, 'check');
	const sleep = jest.spyOn(systemClock, 'sleep').mockImplementation(async () => {
		await waitFor('every call to arrive', () => (arrived.mock.calls.length >= 40 ? true : undefined), 20_000, 10);
	});
	try {
		const answers = await Promise.all([
			...Array.from({ length: 20 }, async (_, i) => await send(`wrong-${i}`)),
			...Array.from({ length: 20 }, async () => await send(undefined)),
		]);
		expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(401));
		expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
		expect(server.executions).toHaveLength(0);
	} finally {
		sleep.mockRestore();
		arrived.mockRestore();
	}
});

test('while a secret is known, 20 calls without a token in a row are refused without a read', async () => {
	expect((await send(SECRET)).status).toBe(200);
	for (let i = 0; i < 20; i++) expect((await send(undefined)).status).toBe(401);
	expect(reads).toHaveBeenCalledTimes(1);
});

test('a new secret works within a second of the last read, with one more read', async () => {
	expect((await send(SECRET)).status).toBe(200);
	credential.callbackSecret = 'cb-secret/abuse-new-91d0';
	const started = Date.now();
	expect((await send('cb-secret/abuse-new-91d0')).status).toBe(200);
	// A second's wait for the next read, and the machine's own time.
	expect(Date.now() - started).toBeLessThan(4_000);
	expect(reads).toHaveBeenCalledTimes(2);
	expect((await send(SECRET)).status).toBe(401);
});

test('a caller without the secret holds no completion back while its credential read runs', async () => {
	expect((await send(SECRET)).status).toBe(200);
	let open: () => void = () => {};
	const gate = new Promise<void>((resolve) => (open = resolve));
	reads.mockImplementation(async function (this: HarnessCredentialsHelper, ...args) {
		await gate;
		return await readCredential.apply(this, args);
	});
	const body = result(imageResult(randomUUID()));
	const stranger = send('not-the-secret', body);
	await new Promise((resolve) => setTimeout(resolve, 200));
	const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('held back'), 3_000));
	const real = await Promise.race([send(SECRET, body), timeout]);
	open();
	expect(real).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: body.data.id } });
	expect((await stranger).status).toBe(401);
	expect(server.executions).toHaveLength(2);
});
