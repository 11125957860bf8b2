/** One node run alone on a fresh service limiter (the limiter's tests), on a fake clock. */
import {
	ServiceLimiter,
	type LimiterClock,
	type Permit,
	type ShareSettings,
} from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/limiter';
import { DEFAULT_RETRY_SETTINGS } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/retry/policy';

export interface OneRun {
	service: ServiceLimiter;
	readonly limit: number;
	snapshot: ServiceLimiter['snapshot'];
	acquire(): Promise<Permit>;
}

export const adaptive = (cap = 1000): ShareSettings => ({ adaptive: true, cap });

/** A service limiter as the process's registry makes one. */
export const newServiceLimiter = (clock: LimiterClock): ServiceLimiter =>
	new ServiceLimiter(clock, { maxPauseMs: DEFAULT_RETRY_SETTINGS.maxDelayMs });

export function oneRun(settings: ShareSettings, clock: LimiterClock, signal?: AbortSignal): OneRun {
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
