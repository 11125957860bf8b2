/** One node run alone on a fresh service limiter (the limiter's tests), on a fake clock. */
import {
	ServiceLimiter,
	type LimiterClock,
	type Permit,
	type RunSettings,
} from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/limiter/limiter';

export interface OneRun {
	service: ServiceLimiter;
	readonly limit: number;
	snapshot: ServiceLimiter['snapshot'];
	acquire(): Promise<Permit>;
}

export const adaptive = (cap = 1000): RunSettings => ({ adaptive: true, cap });

export function oneRun(settings: RunSettings, clock: LimiterClock, signal?: AbortSignal): OneRun {
	const service = new ServiceLimiter(clock);
	const run = service.openRun(settings, signal);
	return {
		service,
		/** What this run may have in flight: the shared limit within its cap. */
		get limit() {
			return settings.adaptive ? Math.min(service.limit, settings.cap) : settings.cap;
		},
		snapshot: () => service.snapshot(),
		acquire: () => run.acquire(),
	};
}
