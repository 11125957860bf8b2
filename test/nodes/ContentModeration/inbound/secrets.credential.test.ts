/** What the secret cache (inbound/secrets.ts) gives for one credential read: its standing, its check, its redaction, its error. */
import { CredentialReadError, SecretCache } from '@package/nodes/ContentModeration/inbound/secrets';
import type { BoundedMap } from '@package/nodes/ContentModeration/helpers/boundedMap';
import type { StoreName } from '@package/nodes/ContentModeration/helpers/processState';
import { FakeClock, flush } from '@test/helpers/fakeClock';
import { storesOn } from '@test/helpers/stores';

const STRONG = 'cb-secret/16char';
const ACCESS_TOKEN = 'at-credential-77e1';

async function credentialOf(callbackSecret: string, given: string[] = []) {
	const cache = new SecretCache(storesOn(new FakeClock()));
	return await cache.check('t1', given, async () => ({
		callbackSecret,
		secrets: [ACCESS_TOKEN],
	}));
}

test('strong with a Callback Secret of 16 characters or more; none: every call passes', async () => {
	expect((await credentialOf(STRONG)).credential.strong).toBe(true);
	expect((await credentialOf(STRONG.slice(1), [STRONG.slice(1)])).credential.strong).toBe(false);
	expect(await credentialOf('')).toMatchObject({
		credential: { strong: false },
		check: { ok: true },
	});
	expect((await credentialOf('', ['anything'])).check).toEqual({ ok: true });
	expect((await credentialOf(STRONG)).check).toEqual({
		ok: false,
		message: expect.stringMatching(/^Missing callback token/),
	});
});

test("the credential's own redaction is compiled once; a caller's other token gets one of its own", async () => {
	const { credential } = await credentialOf(STRONG, [STRONG]);
	const own = credential.redaction([]);
	expect(credential.redaction(['', STRONG, ACCESS_TOKEN])).toBe(own);
	expect(own.text(`${STRONG} ${ACCESS_TOKEN} other`)).toBe('*** *** other');
	const withCaller = credential.redaction(['caller-token-1']);
	expect(withCaller).not.toBe(own);
	expect(withCaller.text(`${STRONG} caller-token-1`)).toBe('*** ***');
	// An empty secret masks nothing.
	expect((await credentialOf('')).credential.redaction([]).text('a b')).toBe('a b');
});

test('a failed read: an error that says which credential could not be read, and nothing more', async () => {
	const cache = new SecretCache(storesOn(new FakeClock()));
	const failing = cache.check('t1', [], async () => await Promise.reject(new Error(`bad ${STRONG}`)));
	await expect(failing).rejects.toThrow(new CredentialReadError());
	await expect(failing).rejects.toHaveProperty('message', 'The Content Moderation API credential could not be read');
});

test('a read that ends after the reads under way were forgotten leaves the read started since to its callers', async () => {
	const clock = new FakeClock();
	const maps = new Map<StoreName, BoundedMap<string, unknown>>();
	const cache = new SecretCache(<V>(name: StoreName) => {
		const map = storesOn(clock)<V>(name);
		maps.set(name, map as BoundedMap<string, unknown>);
		return map;
	});
	let reads = 0;
	let first: (secrets: { callbackSecret: string; secrets: string[] }) => void = () => {};
	const read = async () => {
		reads++;
		if (reads === 1)
			return await new Promise<{ callbackSecret: string; secrets: string[] }>((resolve) => (first = resolve));
		return { callbackSecret: STRONG, secrets: [] };
	};
	const calls = [cache.check('t1', ['x'], read)];
	await flush();
	maps.get('credentialReadsUnderWay')?.clear();
	calls.push(cache.check('t1', ['x'], read));
	await flush();
	first({ callbackSecret: STRONG, secrets: [] });
	await flush();
	// A wrong token against the first read's secret: it joins the read under way, a second after the first.
	calls.push(cache.check('t1', ['x'], read));
	await clock.advance(1_000);
	expect((await Promise.all(calls)).map(({ check }) => check.ok)).toEqual([false, false, false]);
	expect(reads).toBe(2);
});
