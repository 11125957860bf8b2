/** The queue e2e's counting: burst figures from delivery attempts and executions, and n8n's log lines. */
import type { CallbackAttempt } from '../../dev/mock/callbacks';
import type { QueueProcess } from '../../dev/n8n/queue';
import { enqueuedBy, workerRuns } from '../e2e/queue/cases';
import { burstFigures, figuresTable, percentile } from '../e2e/queue/figures';

const attempt = (moderationId: string, n: number, time: number, durationMs: number, ok: boolean): CallbackAttempt => ({
	moderationId,
	event: 'moderation.completed',
	url: 'http://127.0.0.1/webhook/x/callback',
	attempt: n,
	ok,
	status: ok ? 200 : undefined,
	error: ok ? undefined : 'UND_ERR_HEADERS_TIMEOUT',
	time,
	durationMs,
});

describe('burstFigures', () => {
	const ids = ['a', 'b', 'c', 'd'];
	const attempts = [
		attempt('a', 1, 1000, 100, true),
		// b: timed out once, acknowledged on the retry 5 s + 100 ms + 300 ms after its first attempt
		attempt('b', 1, 1000, 5000, false),
		attempt('b', 2, 6100, 300, true),
		// c: never acknowledged
		attempt('c', 1, 1000, 5000, false),
		attempt('c', 2, 6100, 5000, false),
		attempt('d', 1, 1010, 200, true),
		attempt('not-in-burst', 1, 0, 1, true),
	];
	const executions = [
		{ id: 1, status: 'success', stoppedAt: new Date(2000).toISOString(), moderationId: 'a' },
		// b ran twice: the timed-out attempt had started an execution too
		{ id: 2, status: 'success', stoppedAt: new Date(3000).toISOString(), moderationId: 'b' },
		{ id: 3, status: 'success', stoppedAt: new Date(7000).toISOString(), moderationId: 'b' },
		{ id: 4, status: 'error', stoppedAt: new Date(4000).toISOString(), moderationId: 'c' },
	];
	const f = burstFigures('test', ids, attempts, executions);

	it('counts acknowledgements, retries and what n8n recorded per moderation id', () => {
		expect(f).toMatchObject({
			callbacks: 4,
			acknowledged: 3,
			retried: 2,
			unacknowledged: 1,
			executions: 4,
			successful: 3,
			otherStatuses: { error: 1 },
			duplicated: 1,
			missing: 1,
		});
	});

	it('flags an acknowledged callback without any execution (d), not an unacknowledged one (c)', () => {
		expect(f.ackedWithoutExecution).toEqual(['d']);
	});

	it('measures acknowledgement from the first attempt, retries included, and rate to the last success', () => {
		expect([f.ackP50Ms, f.ackMaxMs]).toEqual([200, 5400]);
		// 3 successful executions between the first attempt (1000) and the last success (7000)
		expect(f.executionsPerSecond).toBeCloseTo(0.5);
	});

	it('prints one column per mode', () => {
		const table = figuresTable([f, { ...f, mode: 'other' }]).split('\n');
		expect(table[0]).toBe('| | test | other |');
		expect(table.find((l) => l.startsWith('| Deliveries that needed a retry'))).toBe('| Deliveries that needed a retry | 2 | 2 |');
	});
});

describe('percentile', () => {
	it('is the nearest-rank percentile', () => {
		const xs = Array.from({ length: 100 }, (_, i) => i + 1);
		expect([percentile(xs, 50), percentile(xs, 95), percentile(xs, 100), percentile([7], 95)]).toEqual([50, 95, 100, 7]);
		expect(percentile([], 50)).toBeNaN();
	});
});

describe("n8n's log lines", () => {
	// As n8n 2.41.1 prints them (worker and webhook processor logs of a run).
	const proc = (name: string, text: string) => ({ name, log: () => text }) as unknown as QueueProcess;
	const w1 = proc('worker 1', 'Worker started execution 5 (job 5)\nWorker finished execution 5 (job 5)\nWorker started execution 7 (job 7)\n');
	const w2 = proc('worker 2', 'Worker started execution 6 (job 6)\nWorker finished execution 6 (job 6)\n');

	it('maps each execution to the worker that started and the one that finished it', () => {
		const { started, finished } = workerRuns([w1, w2]);
		expect(Object.fromEntries(started)).toEqual({ 5: ['worker 1'], 6: ['worker 2'], 7: ['worker 1'] });
		expect(Object.fromEntries(finished)).toEqual({ 5: ['worker 1'], 6: ['worker 2'] });
	});

	it('reads the executions a process enqueued', () => {
		const webhook = { log: () => 'Enqueued execution 6 (job 6)\nExecution 6 (job 6) finished\nEnqueued execution 8 (job 8)\n' };
		expect([...enqueuedBy(webhook)]).toEqual([6, 8]);
	});
});
