/**
 * One limiter per service per process. A service is its base URL and token (two credentials with one token share
 * one quota); the token is kept only as a digest.
 */
import { BoundedMap } from '../helpers/boundedMap';
import { systemClock, type Clock } from '../helpers/clock';
import { PROCESS_STATE, processStore, secretDigest } from '../helpers/processState';
import { DEFAULT_RETRY_SETTINGS } from '../retry/policy';
import { ByteBudget } from './bytes';
import { ServiceLimiter, type LimiterSettings } from './limiter';

/** `baseUrl` as parseBaseUrl returns it (a valid http(s) URL). */
export function serviceKey(baseUrl: string, accessToken: unknown): string {
	// A base URL may carry user:password: a credential too, so it goes into the hash, not the key.
	const url = new URL(baseUrl);
	const userinfo = `${url.username}:${url.password}`;
	url.username = '';
	url.password = '';
	const secretHash = secretDigest(`${userinfo} ${String(accessToken ?? '')}`).toString('hex');
	return `${url.href.replace(/\/+$/, '')} ${secretHash}`;
}

export class LimiterRegistry {
	/** The process's byte budget (all services, all runs). */
	readonly bytes = new ByteBudget();

	constructor(
		private readonly clock: Clock,
		readonly settings: LimiterSettings,
		private readonly services = new BoundedMap<string, ServiceLimiter>(PROCESS_STATE.serviceLimiters, clock),
	) {}

	get size(): number {
		return this.services.size;
	}

	/** The limiter of the service `key` (serviceKey), made when none is remembered; the last used go last. */
	limiterFor(key: string): ServiceLimiter {
		const now = this.clock.now();
		this.services.dropWhere((limiter) => limiter.isIdle(now, this.services.bounds.ttlMs));
		const limiter = this.services.get(key) ?? new ServiceLimiter(this.clock, this.settings, this.bytes);
		this.services.set(key, limiter);
		return limiter;
	}
}

/** The registry of this process: a Retry-After pauses sends no longer than an item waits for one. */
export const limiters = new LimiterRegistry(
	systemClock,
	{ maxPauseMs: DEFAULT_RETRY_SETTINGS.maxDelayMs },
	processStore('serviceLimiters'),
);
