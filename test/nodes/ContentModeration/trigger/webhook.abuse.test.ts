/**
 * Calls without the right token are cheap to refuse (the trigger's secret check, inbound/secrets.ts),
 * through n8n-core's real WebhookContext and real HTTP, the secret cache on a fake clock: no token while a
 * secret is known costs no credential read, wrong tokens (or a credential that cannot be read) re-read at
 * most once a second per trigger, and a refused caller holds no completion back.
 */
import { randomUUID } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { imageResult, result } from '@test/helpers/callbackBodies';
import { HarnessCredentialsHelper } from '@test/helpers/engine/credentials';
import { postCallback, startTriggerServer, type TriggerServer } from '@test/helpers/webhook-server';

import { waitFor } from '@dev/wait';
import { systemClock } from '@package/nodes/ContentModeration/helpers/clock';
import { secretCache } from '@package/nodes/ContentModeration/inbound/secrets';
import { FakeClock } from '@test/helpers/fakeClock';
import { PROCESS_STATE, resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const REREAD_INTERVAL_MS = PROCESS_STATE.credentialReads.ttlMs;

const SECRET = 'cb-secret/abuse-4e7b';
const readCredential = HarnessCredentialsHelper.prototype.getDecrypted;
const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
let server: TriggerServer;
let credential: ICredentialDataDecryptedObject;

// The secret cache's clock (systemClock): time moves only when a test says so.
let clock: FakeClock;
let sleeps: jest.SpyInstance;
let now: jest.SpyInstance;
beforeEach(async () => {
	clock = new FakeClock();
	now = jest.spyOn(systemClock, 'now').mockImplementation(clock.now);
	sleeps = jest.spyOn(systemClock, 'sleep').mockImplementation(clock.sleep);
	resetProcessState();
	credential = { baseUrl: 'http://127.0.0.1:9', accessToken: 'tok-abuse-1', callbackSecret: SECRET };
	server = await startTriggerServer({ parameters: {}, credentials: credential });
	reads.mockClear();
	reads.mockImplementation(readCredential);
});
afterEach(async () => {
	now.mockRestore();
	sleeps.mockRestore();
	await server.stop();
});

// Calls that wait for the fake second wait as long as the others take to arrive (a loaded machine: long).
const send = async (token: string | undefined, body: unknown = result(imageResult(randomUUID()))) =>
	await postCallback(server.webhookUrl, body, { timeoutMs: 60_000, ...(token === undefined ? {} : { query: { token } }) });

test('20 calls with a wrong token and 20 without one in the same (fake) second, from cold: refused, at most 2 credential reads', async () => {
	const arrived = jest.spyOn(secretCache, 'check');
	const calls = [...Array.from({ length: 20 }, async (_, i) => await send(`wrong-${i}`)), ...Array.from({ length: 20 }, async () => await send(undefined))];
	await waitFor('every call to arrive', () => (arrived.mock.calls.length >= 40 ? true : undefined), 50_000, 10);
	// A wrong token that met the warm cache waits for the next read, a second after the first.
	await clock.advance(REREAD_INTERVAL_MS);
	const answers = await Promise.all(calls);
	expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(401));
	expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
	expect(server.executions).toHaveLength(0);
}, 90_000);

test('15 calls in a row while the credential cannot be read: 503 naming no secret, at most 2 reads in the first second', async () => {
	reads.mockImplementation(async () => {
		throw new Error(`decryption failed for ${SECRET}`);
	});
	const arrived = jest.spyOn(secretCache, 'check');
	const answers: Array<Promise<Awaited<ReturnType<typeof send>>>> = [];
	for (let i = 0; i < 15; i++) {
		answers.push(send(`wrong-${i}`));
		// The next call goes out once this one is answered or waits for the next read.
		await waitFor('the call to be answered or wait', () => (arrived.mock.calls.length > i ? true : undefined), 10_000, 5);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	arrived.mockRestore();
	expect(reads.mock.calls.length).toBe(1);
	await clock.advance(REREAD_INTERVAL_MS);
	const all = await Promise.all(answers);
	expect(reads.mock.calls.length).toBe(2);
	expect(new Set(all.map((answer) => answer.status))).toEqual(new Set([503]));
	expect(JSON.stringify(all)).not.toContain(SECRET);
});

test('while a secret is known, 20 calls without a token in a row are refused without a read', async () => {
	expect((await send(SECRET)).status).toBe(200);
	for (let i = 0; i < 20; i++) expect((await send(undefined)).status).toBe(401);
	expect(reads).toHaveBeenCalledTimes(1);
});

test('a new secret works once the next read comes, a second after the last and not sooner', async () => {
	expect((await send(SECRET)).status).toBe(200);
	credential.callbackSecret = 'cb-secret/abuse-new-91d0';
	let answered: unknown;
	const call = send('cb-secret/abuse-new-91d0').then((answer) => (answered = answer));
	await waitFor('the call to wait for the next read', () => (sleeps.mock.calls.length > 0 ? true : undefined), 10_000, 5);
	expect(sleeps.mock.calls[0][0]).toBe(REREAD_INTERVAL_MS);
	await clock.advance(REREAD_INTERVAL_MS - 1);
	expect([answered, reads.mock.calls.length]).toEqual([undefined, 1]);
	await clock.advance(1);
	expect((await call).status).toBe(200);
	expect(reads).toHaveBeenCalledTimes(2);
	// The old secret is now a wrong token: refused at the next read.
	const old = send(SECRET);
	await waitFor('the old secret to wait for the next read', () => (sleeps.mock.calls.length > 1 ? true : undefined), 10_000, 5);
	await clock.advance(REREAD_INTERVAL_MS);
	expect((await old).status).toBe(401);
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
	// Its read comes a second after the last: it then waits at the gate.
	await waitFor('the stranger to wait for the next read', () => (sleeps.mock.calls.length > 0 ? true : undefined), 10_000, 5);
	await clock.advance(REREAD_INTERVAL_MS);
	await new Promise((resolve) => setTimeout(resolve, 200));
	const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('held back'), 3_000));
	const real = await Promise.race([send(SECRET, body), timeout]);
	open();
	expect(real).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: body.data.id } });
	expect((await stranger).status).toBe(401);
	expect(server.executions).toHaveLength(2);
});
