/**
 * The secret cache (inbound/secrets.ts) on a fake clock: how long what was read is trusted, what a call
 * without the right token costs in credential reads. That it shows no secret: helpers/processState.test.ts.
 */
import { inspect } from 'node:util';

import { PROCESS_STATE } from '@package/nodes/ContentModeration/helpers/processState';
import { CredentialReadError, SecretCache, type SecretCheck } from '@package/nodes/ContentModeration/inbound/secrets';
import { FakeClock } from '@test/helpers/fakeClock';
import { storesOn } from '@test/helpers/stores';

const { ttlMs: SECRET_TRUST_MS, maxEntries: MAX_TRIGGERS } = PROCESS_STATE.triggerCredentials;
const REREAD_INTERVAL_MS = PROCESS_STATE.credentialReads.ttlMs;

const SECRET = 'cb-secret/3f9a7c';
const ACCESS_TOKEN = 'at-secret-cache-51d2';

function setup(maxTriggers: number = MAX_TRIGGERS) {
	const clock = new FakeClock();
	const checks = new SecretCache(storesOn(clock, { triggerCredentials: { maxEntries: maxTriggers }, credentialReads: { maxEntries: maxTriggers } }));
	const state = { reads: 0, secret: SECRET, fail: false };
	const read = async () => {
		state.reads++;
		if (state.fail) throw new Error('credential gone');
		return { callbackSecret: state.secret, secrets: [ACCESS_TOKEN, state.secret] };
	};
	const check = async (token: string | undefined, trigger = 't1') =>
		await checks.check(trigger, token === undefined ? [] : [token], read);
	const ok = async (token: string | undefined, trigger = 't1') => (await check(token, trigger)).check.ok;
	return { clock, checks, state, check, ok };
}

describe('the secret cache', () => {
	test('an old secret is trusted 9.9 s after the read it came from and refused at 10 s, with no read between', async () => {
		const { clock, state, ok } = setup();
		expect(await ok(SECRET)).toBe(true);
		state.secret = 'cb-secret/changed';
		clock.time += 9_900;
		expect(await ok(SECRET)).toBe(true);
		expect(state.reads).toBe(1);
		clock.time += 100;
		expect(await ok(SECRET)).toBe(false);
		expect(state.reads).toBe(2);
	});

	test('20 calls with a wrong token and 20 without one at once, cold: refused after one read', async () => {
		const { state, check } = setup();
		const calls = [
			...Array.from({ length: 20 }, async (_, i) => await check(`wrong-${i}`)),
			...Array.from({ length: 20 }, async () => await check(undefined)),
		];
		const answers = await Promise.all(calls);
		expect(answers.every(({ check: result }) => !result.ok)).toBe(true);
		expect(state.reads).toBe(1);
	});

	test('20 calls with a wrong token at once, warm: they wait for one shared read, a second after the last', async () => {
		const { clock, state, check, ok } = setup();
		await ok(SECRET);
		clock.time += 300;
		let answered = 0;
		const calls = Array.from({ length: 20 }, async (_, i) => {
			const { check: result } = await check(`wrong-${i}`);
			answered++;
			return result.ok;
		});
		await clock.advance(REREAD_INTERVAL_MS - 301);
		expect([answered, state.reads]).toEqual([0, 1]);
		await clock.advance(1);
		expect(await Promise.all(calls)).toEqual(Array(20).fill(false));
		expect(state.reads).toBe(2);
	});

	test('while a secret is known, a call without a token is refused without a read', async () => {
		const { clock, state, ok } = setup();
		await ok(SECRET);
		for (let i = 0; i < 20; i++) {
			clock.time += 600;
			expect(await ok(undefined)).toBe(false);
		}
		// The one read the trust window needs: 10 s after the first.
		expect(state.reads).toBe(2);
	});

	test('a wrong token re-reads at most once per interval per trigger; a new secret works within it', async () => {
		const { clock, state, check, ok } = setup();
		await ok(SECRET);
		state.secret = 'cb-secret/new';
		const early = check('cb-secret/new');
		await clock.advance(REREAD_INTERVAL_MS - 1);
		expect(state.reads).toBe(1);
		await clock.advance(1);
		expect((await early).check.ok).toBe(true);
		expect(state.reads).toBe(2);
		// Another trigger has its own interval.
		expect(await ok(SECRET, 't2')).toBe(false);
		// An interval after the last read a wrong token reads at once again.
		clock.time += REREAD_INTERVAL_MS;
		expect(await ok('wrong')).toBe(false);
		expect(state.reads).toBe(4);
	});

	test('a removed secret: calls without a token pass once the next read shows none', async () => {
		const { clock, state, ok } = setup();
		await ok(SECRET);
		state.secret = '';
		expect(await ok(undefined)).toBe(false);
		const stale = ok('stale-token');
		await clock.advance(REREAD_INTERVAL_MS);
		expect(await stale).toBe(true);
		expect(await ok(undefined)).toBe(true);
		expect(state.reads).toBe(2);
	});

	test('reads under way at once are one read; a failed read answers every caller with an error naming no secret', async () => {
		const { clock, state, ok } = setup();
		const all = await Promise.all(Array.from({ length: 50 }, async () => await ok(SECRET)));
		expect(all.every(Boolean)).toBe(true);
		expect(state.reads).toBe(1);
		state.fail = true;
		const failed = await Promise.allSettled(Array.from({ length: 5 }, async () => await ok(SECRET, 't2')));
		expect(state.reads).toBe(2);
		for (const answer of failed) {
			expect(answer).toEqual({ status: 'rejected', reason: expect.any(CredentialReadError) });
			expect(JSON.stringify(inspect((answer as PromiseRejectedResult).reason))).not.toMatch(/cb-secret|at-secret|credential gone/);
		}
		// Nothing was kept: once the interval is over, the next call reads again.
		state.fail = false;
		const next = ok(SECRET, 't2');
		await clock.advance(REREAD_INTERVAL_MS);
		expect(await next).toBe(true);
		expect(state.reads).toBe(3);
	});

	test.each([
		['cold', 0],
		['warm', 1],
		['expired', 2],
	])('15 calls in a row against a credential that fails, %s: at most two reads in the first second', async (_name, before) => {
		const { clock, state, check } = setup();
		// Warm: read a second ago; expired: read longer ago than the trust window.
		if (before > 0) await check(SECRET);
		clock.time += before === 1 ? REREAD_INTERVAL_MS : SECRET_TRUST_MS;
		state.fail = true;
		const readsBefore = state.reads;
		// In a row: each call sent as soon as the one before was answered or is waiting (the same millisecond).
		const calls: Array<Promise<Awaited<ReturnType<typeof check>> | Error>> = [];
		for (let i = 0; i < 15; i++) {
			calls.push(check(i % 3 === 0 ? undefined : `wrong-${i}`).catch((error: Error) => error));
			await clock.advance(0);
		}
		await clock.advance(REREAD_INTERVAL_MS);
		expect(state.reads - readsBefore).toBeLessThanOrEqual(2);
		await clock.advance(REREAD_INTERVAL_MS);
		const answers = await Promise.all(calls);
		// Warm, a call without a token is refused by what is known; every other call gets the read's error.
		for (const answer of answers) expect(answer instanceof CredentialReadError || !(answer as SecretCheck).check.ok).toBe(true);
		expect(answers.filter((answer) => answer instanceof CredentialReadError).length).toBeGreaterThan(0);
	});

	test('triggers are separate; the oldest go first beyond the bound, expired ones when the cache is next used', async () => {
		const { clock, checks, state, ok } = setup(2);
		await ok(SECRET, 't1');
		state.secret = 'other';
		await ok('other', 't2');
		await ok('other', 't3');
		expect(checks.size).toBe(2);
		expect(state.reads).toBe(3);
		expect(await ok('other', 't1')).toBe(true);
		expect(state.reads).toBe(4);
		clock.time += SECRET_TRUST_MS;
		await ok('other', 't4');
		expect(checks.size).toBe(1);
	});

	test("masks the credential's secrets on a call that reads nothing, and the tokens the call carried", async () => {
		const { state, check } = setup();
		await check(SECRET);
		const { credential } = await check(SECRET);
		expect(state.reads).toBe(1);
		const item = { body: `${ACCESS_TOKEN} ${encodeURIComponent(SECRET)} ${Buffer.from(ACCESS_TOKEN).toString('base64')}` };
		expect(credential.redaction([]).value(item)).toEqual({ body: '*** *** ***' });
		expect(credential.redaction(['caller-token-9']).text('caller-token-9 and not-a-secret')).toBe('*** and not-a-secret');
	});
});
