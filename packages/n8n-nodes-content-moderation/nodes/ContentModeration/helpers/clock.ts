/** Time for state that outlives a run and for waits (read-backs, polling, the limiter): injected, for a fake clock. */
import { sleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	/** Resolves after `ms` (n8n's sleep: node code may not use timers). */
	sleep(ms: number): Promise<void>;
}

/** The process's clock. */
export const systemClock: Clock = { now: () => Date.now(), sleep };
