/** One node run alone on a fresh service limiter (the limiter's tests), on a fake clock, and its moves. */
import type { SendOutcome } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/outcome';
import type { Clock } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/clock';
import {
	ServiceLimiter,
	type Permit,
	type ShareSettings,
} from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/limiter';
import { DEFAULT_RETRY_SETTINGS } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/retry/policy';
import type { FakeClock } from './fakeClock';

export interface OneRun {
	service: ServiceLimiter;
	readonly limit: number;
	snapshot: ServiceLimiter['snapshot'];
	acquire(): Promise<Permit>;
}

export const adaptive = (cap = 1000): ShareSettings => ({ adaptive: true, cap });

/** A service limiter as the process's registry makes one. */
export const newServiceLimiter = (clock: Clock): ServiceLimiter =>
	new ServiceLimiter(clock, { maxPauseMs: DEFAULT_RETRY_SETTINGS.maxDelayMs });

export function oneRun(settings: ShareSettings, clock: Clock, signal?: AbortSignal): OneRun {
	const service = newServiceLimiter(clock);
	const share = service.openShare(settings, signal);
	return {
		service,
		/** What this run may have in flight: the shared limit within its cap. */
		get limit() {
			return settings.adaptive ? Math.min(service.limit, settings.cap) : settings.cap;
		},
		snapshot: () => service.snapshot(),
		acquire: () => share.acquire(),
	};
}

export const ok = (latencyMs = 200): SendOutcome => ({ kind: 'success', latencyMs });

/** Takes every permit available now (without waiting). */
export async function takeAll(limiter: OneRun): Promise<Permit[]> {
	const permits: Permit[] = [];
	while (limiter.snapshot().inFlight < limiter.limit) permits.push(await limiter.acquire());
	return permits;
}

/** One round trip with the limit in full use: every permit answered with `outcome` after `ms`. */
export async function roundTrip(limiter: OneRun, clock: FakeClock, outcome = ok(), ms = 200): Promise<number> {
	const permits = await takeAll(limiter);
	await clock.advance(ms);
	for (const p of permits) p.release(outcome);
	return permits.length;
}

/** Leaves slow start with one timeout: the limit is then INITIAL_LIMIT / 2. */
export async function leaveSlowStart(limiter: OneRun, clock: FakeClock): Promise<void> {
	const p = await limiter.acquire();
	await clock.advance(1);
	p.release({ kind: 'overloaded' });
	await clock.advance(1);
}
