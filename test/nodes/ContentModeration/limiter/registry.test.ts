/**
 * One limiter per service per process: found by base URL and a hash of the token, shared by every run,
 * remembered across runs, dropped after 5 min without traffic (serviceLimiters). Fake clock.
 */
import { INITIAL_LIMIT } from '@package/nodes/ContentModeration/limiter/adaptiveLimit';
import { PROCESS_STATE } from '@package/nodes/ContentModeration/helpers/processState';
import { LimiterRegistry, limiters, serviceKey } from '@package/nodes/ContentModeration/limiter/registry';
import { DEFAULT_RETRY_SETTINGS } from '@package/nodes/ContentModeration/retry/policy';
import { FakeClock } from '@test/helpers/fakeClock';

const FORGET_AFTER_MS = PROCESS_STATE.serviceLimiters.ttlMs;
const URL = 'https://moderation.example.com';
const TOKEN = 'tok-3f9a-secret';
const ok = { kind: 'success', latencyMs: 200 } as const;

describe('serviceKey', () => {
	it('is the base URL and a hash of the token: never the token itself', () => {
		const key = serviceKey(URL, TOKEN);
		expect(key).not.toContain(TOKEN);
		expect(key.startsWith(URL)).toBe(true);
		expect(serviceKey(URL, TOKEN)).toBe(key);
		expect(serviceKey(URL, 'another-token')).not.toBe(key);
		expect(serviceKey('https://other.example.com', TOKEN)).not.toBe(key);
	});

	it('is the base URL without its trailing slashes, a space, then the hex digest', () => {
		expect(serviceKey(URL, TOKEN)).toMatch(/^https:\/\/moderation\.example\.com [0-9a-f]{64}$/);
		expect(serviceKey(`${URL}/api//`, TOKEN)).toBe(serviceKey(`${URL}/api`, TOKEN));
	});

	it('a credential without a token is one service with an empty token', () => {
		expect(serviceKey(URL, undefined)).toBe(serviceKey(URL, ''));
		expect(serviceKey(URL, null)).toBe(serviceKey(URL, ''));
	});

	it('keeps no user:password of the base URL, but another user:password is another service', () => {
		const key = serviceKey('https://svc-user:pa55-secret@moderation.example.com', TOKEN);
		expect(key).not.toMatch(/svc-user|pa55-secret/);
		expect(serviceKey('https://other-user:pa55-secret@moderation.example.com', TOKEN)).not.toBe(key);
		expect(serviceKey(URL, TOKEN)).not.toBe(key);
	});
});

describe('LimiterRegistry', () => {
	it("the process's registry pauses sends for a Retry-After no longer than an item waits for one", () => {
		expect(limiters.settings).toEqual({ maxPauseMs: DEFAULT_RETRY_SETTINGS.maxDelayMs });
	});

	it('gives every run of one service the same limiter, and another service its own', () => {
		const registry = new LimiterRegistry(new FakeClock(), { maxPauseMs: 30_000 });
		const a = registry.limiterFor(serviceKey(URL, TOKEN));
		expect(registry.limiterFor(serviceKey(URL, TOKEN))).toBe(a);
		expect(registry.limiterFor(serviceKey(URL, 'other'))).not.toBe(a);
		expect(registry.size).toBe(2);
	});

	it('a run that starts after another learned the level starts there, not at INITIAL_LIMIT', async () => {
		const clock = new FakeClock();
		const registry = new LimiterRegistry(clock, { maxPauseMs: 30_000 });
		const first = registry.limiterFor(serviceKey(URL, TOKEN)).openShare({ adaptive: true, cap: 1000 });
		// Two healthy round trips in slow start: 20 -> 60 -> 180.
		for (let round = 0; round < 2; round++) {
			const limit = registry.limiterFor(serviceKey(URL, TOKEN)).limit;
			const permits = await Promise.all(Array.from({ length: limit }, () => first.acquire()));
			await clock.advance(200);
			for (const p of permits) p.release(ok);
			await clock.advance(1);
		}
		const learned = registry.limiterFor(serviceKey(URL, TOKEN)).limit;
		expect(learned).toBe(INITIAL_LIMIT * 9);
		await clock.advance(FORGET_AFTER_MS - 1000);
		const second = registry.limiterFor(serviceKey(URL, TOKEN));
		expect(second.limit).toBe(learned);
		// Its first batch goes out at the learned level at once.
		const run = second.openShare({ adaptive: true, cap: 1000 });
		const permits = await Promise.all(Array.from({ length: learned }, () => run.acquire()));
		expect(second.snapshot().inFlight).toBe(learned);
		for (const p of permits) p.release(ok);
	});

	it(`drops a service idle for FORGET_AFTER_MS (${FORGET_AFTER_MS / 60_000} min), never one with sends in flight`, async () => {
		const clock = new FakeClock();
		const registry = new LimiterRegistry(clock, { maxPauseMs: 30_000 });
		const busyKey = serviceKey('https://busy.example.com', TOKEN);
		const idle = registry.limiterFor(serviceKey(URL, TOKEN));
		const permit = await registry.limiterFor(busyKey).openShare({ adaptive: true, cap: 10 }).acquire();
		await clock.advance(FORGET_AFTER_MS - 1);
		registry.limiterFor(busyKey);
		expect(registry.size).toBe(2);
		await clock.advance(1);
		registry.limiterFor(busyKey);
		// The idle one is gone; the busy one stays, however long its send takes.
		expect(registry.size).toBe(1);
		expect(registry.limiterFor(serviceKey(URL, TOKEN))).not.toBe(idle);
		expect(registry.limiterFor(serviceKey(URL, TOKEN)).limit).toBe(INITIAL_LIMIT);
		await clock.advance(FORGET_AFTER_MS);
		registry.limiterFor(serviceKey(URL, TOKEN));
		expect(registry.size).toBe(2);
		permit.release(ok);
	});
});

it('never drops a limiter with a send in flight, however many services come after it', async () => {
	const registry = new LimiterRegistry(new FakeClock(), { maxPauseMs: 30_000 });
	const busy = registry.limiterFor('svc-a');
	await busy.openShare({ adaptive: true, cap: 10 }).acquire();
	for (let i = 0; i < 1_500; i++) registry.limiterFor(`svc-${i}`);
	expect(registry.limiterFor('svc-a')).toBe(busy);
});
