/**
 * One limiter per service per n8n process: the registry that finds it. A service is its base URL and
 * access token (two credentials with the same token share one quota); the token (and a user:password in
 * the base URL) is kept only as a hash.
 * What a limiter learned is dropped with it after FORGET_AFTER_MS without a send or an answer. No timer:
 * idle limiters are dropped when the registry is next used, so nothing keeps the process alive.
 * Each n8n process (a queue-mode worker too) has its own registry.
 */
import { createHash } from 'crypto';

import { DEFAULT_RETRY_SETTINGS } from '../retry/policy';
import { ByteBudget } from './bytes';
import { systemClock, type Clock } from '../helpers/clock';
import { ServiceLimiter, type LimiterSettings } from './limiter';

/**
 * Longer than any Retry-After the node waits for (30 s) and than per-minute rate-limit windows, so runs
 * minutes apart (webhook bursts, short schedules) start where the last one ended; short enough that a
 * service whose plan or load changed is learned again (slow start: a few round trips) instead of
 * trusting an old level.
 */
export const FORGET_AFTER_MS = 5 * 60_000;

/** `baseUrl` as parseBaseUrl returns it (a valid http(s) URL). */
export function serviceKey(baseUrl: string, accessToken: unknown): string {
	// A base URL may carry user:password: a credential too, so it goes into the hash, not the key.
	const url = new URL(baseUrl);
	const userinfo = `${url.username}:${url.password}`;
	url.username = '';
	url.password = '';
	const secretHash = createHash('sha256').update(`${userinfo} ${String(accessToken ?? '')}`).digest('hex');
	return `${url.href.replace(/\/+$/, '')} ${secretHash}`;
}

export class LimiterRegistry {
	private readonly services = new Map<string, ServiceLimiter>();
	/** The process's byte budget (all services, all runs). */
	readonly bytes = new ByteBudget();

	constructor(
		private readonly clock: Clock,
		readonly settings: LimiterSettings,
	) {}

	get size(): number {
		return this.services.size;
	}

	/** Forgets every service, as a new process would (tests start each case from there). */
	clear(): void {
		this.services.clear();
	}

	/** The limiter of the service `key` (serviceKey), made when none is remembered. */
	limiterFor(key: string): ServiceLimiter {
		const now = this.clock.now();
		for (const [other, limiter] of this.services) {
			if (limiter.isIdle(now, FORGET_AFTER_MS)) this.services.delete(other);
		}
		let limiter = this.services.get(key);
		if (!limiter) {
			limiter = new ServiceLimiter(this.clock, this.settings, this.bytes);
			this.services.set(key, limiter);
		}
		return limiter;
	}
}

/** The registry of this process: a Retry-After pauses sends no longer than an item waits for one. */
export const limiters = new LimiterRegistry(systemClock, { maxPauseMs: DEFAULT_RETRY_SETTINGS.maxDelayMs });
