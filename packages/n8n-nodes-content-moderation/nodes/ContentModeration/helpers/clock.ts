/** The time of the process state (helpers/processState.ts): injected, so that tests run on a fake clock. */
import { sleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	/** Resolves after `ms` (n8n's sleep: node code may not use timers). */
	sleep(ms: number): Promise<void>;
}

/** The process's clock. */
export const systemClock: Clock = { now: () => Date.now(), sleep };
