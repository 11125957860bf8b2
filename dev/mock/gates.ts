/** What a request meets before any endpoint: the rate limit, simulated faults and throttling, then auth. */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

import { MockApiError } from './errors';
import type { ResolvedOptions } from './options';

/**
 * Fault and throttle decisions accumulate their rate and fire each time the sum passes 1: exactly that
 * fraction of requests, evenly spread, the same on every run. With `faultSeed`, at random instead (a
 * seeded generator: the same sequence on every run).
 */
export class TrafficGate {
	private random: (() => number) | undefined;
	private faultCredit = 0;
	private throttleCredit = 0;
	private proxyCredit = 0;
	private windowStart = 0;
	private windowCount = 0;
	private tokens: number | undefined;
	private tokensAt = 0;

	constructor(private readonly options: ResolvedOptions) {}

	/** The error this request gets before anything else happens, if any. */
	check(): MockApiError | undefined {
		const options = this.options;
		if (options.rateLimit > 0 && options.rateLimitBurst > 0) {
			const refused = this.takeToken(options.rateLimit, options.rateLimitBurst);
			if (refused) return refused;
		} else if (options.rateLimit > 0) {
			const now = Date.now();
			if (now - this.windowStart >= 1000) {
				this.windowStart = now;
				this.windowCount = 0;
			}
			this.windowCount++;
			if (this.windowCount > options.rateLimit) {
				const wait = Math.max(1, Math.ceil((this.windowStart + 1000 - now) / 1000));
				return new MockApiError(429, 'rate_limited', `Rate limit of ${options.rateLimit} requests per second exceeded`, undefined, {
					'retry-after': String(wait),
				});
			}
		}
		const retryAfter = { 'retry-after': String(options.retryAfterSeconds) };
		if (this.fires('fault', options.faultRate)) {
			return new MockApiError(503, 'service_unavailable', 'The service is temporarily unavailable (simulated fault)', undefined, retryAfter);
		}
		if (this.fires('throttle', options.throttleRate)) {
			return new MockApiError(429, 'throttled', 'Too many requests (simulated throttling)', undefined, retryAfter);
		}
		return undefined;
	}

	/** Whether a proxy answers this request, after the service acted on it (proxyFaultRate). */
	proxyFault(): boolean {
		return this.fires('proxy', this.options.proxyFaultRate);
	}

	private fires(kind: 'fault' | 'throttle' | 'proxy', rate: number): boolean {
		if (rate <= 0) return false;
		if (this.options.faultSeed > 0) {
			this.random ??= seeded(this.options.faultSeed);
			return this.random() < rate;
		}
		const key = (`${kind}Credit`) as 'faultCredit' | 'throttleCredit' | 'proxyCredit';
		this[key] += rate;
		if (this[key] < 1 - 1e-9) return false;
		this[key] -= 1;
		return true;
	}

	/** Token bucket: `burst` tokens at most, `rate` added per second; a request takes one. */
	private takeToken(rate: number, burst: number): MockApiError | undefined {
		const now = Date.now();
		this.tokens = Math.min(burst, (this.tokens ?? burst) + ((now - this.tokensAt) * rate) / 1000);
		this.tokensAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return undefined;
		}
		const wait = Math.max(1, Math.ceil((1 - this.tokens) / rate));
		return new MockApiError(429, 'rate_limited', `Rate limit of ${rate} requests per second exceeded`, undefined, {
			'retry-after': String(wait),
		});
	}

	reset(): void {
		this.random = undefined;
		this.tokens = undefined;
		this.faultCredit = 0;
		this.throttleCredit = 0;
		this.proxyCredit = 0;
		this.windowStart = 0;
		this.windowCount = 0;
	}
}

/** Park-Miller generator: the same sequence for the same seed. */
function seeded(seed: number): () => number {
	let state = Math.floor(seed) % 2147483647 || 1;
	return () => {
		state = (state * 48271) % 2147483647;
		return (state - 1) / 2147483646;
	};
}

/** Throws a 401 unless the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function authenticate(headers: IncomingHttpHeaders, token: string): void {
	const header = headers.authorization;
	const unauthorized = (message: string) =>
		new MockApiError(401, 'unauthorized', message, undefined, { 'www-authenticate': 'Bearer' });
	if (!header) throw unauthorized('Missing Authorization header; send "Authorization: Bearer <access token>"');
	const match = /^Bearer +(\S+) *$/i.exec(header);
	if (!match) throw unauthorized('The Authorization header must use the Bearer scheme');
	const given = Buffer.from(match[1]);
	const expected = Buffer.from(token);
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
		throw unauthorized('Invalid access token');
	}
}
