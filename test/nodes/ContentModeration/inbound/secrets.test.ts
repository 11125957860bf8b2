/** The trigger's registry of Callback Secrets (secretChecks.ts) on a fake clock: HMACs only, trusted for 10 s. */
import { inspect } from 'node:util';

import {
	SECRET_TRUST_MS,
	SecretChecks,
} from '@package/nodes/ContentModeration/inbound/secrets';

const SECRET = 'cb-secret/3f9a7c';

function setup(maxTriggers?: number) {
	const clock = { time: 5_000_000, now: () => clock.time };
	const checks = new SecretChecks(clock, SECRET_TRUST_MS, maxTriggers);
	let reads = 0;
	let secret = SECRET;
	const read = async () => {
		reads++;
		return secret;
	};
	return {
		clock,
		checks,
		read,
		reads: () => reads,
		setSecret: (value: string) => (secret = value),
	};
}

describe('SecretChecks', () => {
	test('the bound is 10 s', () => {
		expect(SECRET_TRUST_MS).toBe(10_000);
	});

	test('what was read is known for 10 s, then read again', async () => {
		const { clock, checks, read, reads } = setup();
		expect(checks.lookup('t1')).toBeUndefined();
		const known = await checks.learn('t1', read);
		expect(known.hasSecret).toBe(true);
		expect(known.accepts(SECRET)).toBe(true);
		expect(known.accepts('wrong')).toBe(false);
		expect(known.accepts(`${SECRET}x`)).toBe(false);
		clock.time += SECRET_TRUST_MS - 1;
		expect(checks.lookup('t1')?.accepts(SECRET)).toBe(true);
		clock.time += 1;
		expect(checks.lookup('t1')).toBeUndefined();
		expect(reads()).toBe(1);
	});

	test('a changed secret: the old one works at most 10 s after the read it came from', async () => {
		const { clock, checks, read, setSecret } = setup();
		await checks.learn('t1', read);
		setSecret('new-secret');
		clock.time += 9_999;
		expect(checks.lookup('t1')?.accepts(SECRET)).toBe(true);
		clock.time += 1;
		expect(checks.lookup('t1')).toBeUndefined();
		const fresh = await checks.learn('t1', read);
		expect(fresh.accepts(SECRET)).toBe(false);
		expect(fresh.accepts('new-secret')).toBe(true);
	});

	test('a removed secret: known as none after the next read', async () => {
		const { checks, read, setSecret } = setup();
		await checks.learn('t1', read);
		setSecret('');
		const fresh = await checks.learn('t1', read);
		expect(fresh.hasSecret).toBe(false);
		expect(fresh.accepts('')).toBe(false);
		expect(checks.lookup('t1')?.hasSecret).toBe(false);
	});

	test('reads under way at once are one read; a failed read is not kept', async () => {
		const { checks, read, reads } = setup();
		const all = await Promise.all(Array.from({ length: 50 }, async () => await checks.learn('t1', read)));
		expect(all.every((k) => k.accepts(SECRET))).toBe(true);
		expect(reads()).toBe(1);
		const failing = async () => {
			throw new Error('credential gone');
		};
		await expect(checks.learn('t2', failing)).rejects.toThrow('credential gone');
		expect(checks.lookup('t2')).toBeUndefined();
		await expect(checks.learn('t2', read)).resolves.toMatchObject({ hasSecret: true });
	});

	test('triggers are separate; the oldest go first beyond the bound', async () => {
		const { checks, read, setSecret } = setup(2);
		await checks.learn('t1', read);
		setSecret('other');
		await checks.learn('t2', read);
		expect(checks.lookup('t1')?.accepts(SECRET)).toBe(true);
		expect(checks.lookup('t2')?.accepts(SECRET)).toBe(false);
		await checks.learn('t3', read);
		expect(checks.size).toBe(2);
		expect(checks.lookup('t1')).toBeUndefined();
	});

	test('holds no secret: neither the secret nor its plain SHA-256 is in the registry', async () => {
		const { checks, read } = setup();
		await checks.learn('t1', read);
		const { createHash } = await import('node:crypto');
		const dump = inspect(checks, { depth: 10, showHidden: true });
		expect(dump).not.toContain(SECRET);
		const sha = createHash('sha256').update(SECRET).digest();
		expect(dump).not.toContain(sha.toString('hex'));
		expect(dump).not.toContain(inspect(sha));
	});
});
