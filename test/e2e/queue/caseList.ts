/**
 * The queue-only e2e cases (which of them `npm run test:e2e:queue` runs, in what order: ../suites.ts). Their
 * bursts are 200 callbacks (29: E2E_SHARED_BURST; the worker kill: QUEUE_BURST), enough at once to prove none
 * lost and none doubled over both workers; the 1000-callback figures are `npm run bench -- --only queue-burst`.
 */
import type { E2eCase } from '../cases';
import { COUNT as SHARED_BURST } from '../cases/sharedLimiter';
import { KillReport, killWorkerMidBurst } from './bursts';
import { deferredAndWaitOnWorker, QueueContext, ranOnWorkers } from './cases';
import { completionAcrossProcesses } from './completions';
import { sharedLimiterOnWorkers } from './sharedLimiter';
import { textModerationOnWorkers } from './textModeration';
import { waitForCallbackOnWorkers } from './waitForCallback';

export const BURST = Number(process.env.QUEUE_BURST ?? 200);
// Kill once the victim has started this many of the burst's executions: well inside the burst.
const KILL_AFTER = Math.max(5, Math.round(BURST / 10));

/** What the worker kill found, printed at the end of the run. */
export const kills: KillReport[] = [];

export const queueCases: E2eCase[] = [
	{ id: 21, name: 'every execution ran on a worker; callbacks came in through the webhook processor', run: (c) => ranOnWorkers(c as QueueContext) },
	{ id: 22, name: 'Deferred and Wait runs on a worker and returns the full result', run: (c) => deferredAndWaitOnWorker(c as QueueContext) },
	{ id: 24, name: `a worker SIGKILLed in the middle of a ${BURST}-callback burst`, run: (c) => killWorkerMidBurst(c as QueueContext, BURST, KILL_AFTER, kills), restarts: true },
	{
		id: 26,
		name: 'Wait for Callback: waits on a worker, callbacks through the webhook processor, resumed once on a worker',
		run: (c) => waitForCallbackOnWorkers(c as QueueContext),
	},
	{ id: 29, name: `${SHARED_BURST} callbacks at once, each execution reads its result from a service limited to 20/s: each run once over both workers, a limiter per worker`, run: (c) => sharedLimiterOnWorkers(c as QueueContext) },
	{ id: 30, name: 'Text > Moderate: polls on a worker; a webhook comment enqueued by the webhook processor is answered with the cleaned text', run: (c) => textModerationOnWorkers(c as QueueContext) },
	{
		id: 46,
		name: 'trigger: one completion delivered 7 times (5 at once) to the webhook processor starts one execution (main takes no production webhooks here)',
		run: (c) => completionAcrossProcesses(c as QueueContext),
	},
];
