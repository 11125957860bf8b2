/**
 * queue-burst: BENCH_QUEUE_BURST (1000) callbacks at once to the deferred example's published trigger, first
 * on n8n's queue mode (Postgres, Redis, 2 workers, a webhook processor), then on one regular n8n process
 * (SQLite), each with the mock's retries (3, backoff 100 ms doubling) and a per-attempt timeout of 300 s (the
 * webhook processor's whole backlog served) and of the mock's default 5 s. Printed as the side-by-side table
 * of docs/queue-mode.md and written to bench-results/queue-burst.json. The e2e suites prove the properties
 * with 200 at once (queue case 23); this measures what 1000 cost.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8nDb } from '../../dev/n8n/db';
import { PROJECT_ROOT } from '../../dev/n8n/install';
import { teardownOnSignals, type Running } from '../../dev/n8n/lifecycle';
import { startQueueStack } from '../../dev/n8n/queue';
import { newCallbackSecret, startStack, type Stack } from '../../dev/n8n/stack';
import { startMockService, type MockService } from '../../dev/mock/server';
import type { ExecutionRecords } from '../../dev/n8n/db';
import { describeFigures, LONG_TIMEOUT_MS, measuredBurst, QUEUE_MODE, REGULAR_MODE } from '../e2e/queue/bursts';
import { figuresTable, type BurstFigures } from '../e2e/queue/figures';

const BURST = Number(process.env.BENCH_QUEUE_BURST ?? 1000);

/** Both bursts on one stack; a burst that breaks its one requirement (no acknowledged callback without an execution) is reported, not fatal. */
async function bursts(mock: MockService, stack: Stack, db: ExecutionRecords, mode: string, out: BurstFigures[], failures: string[]) {
	const ctx = { stack, db, mock, log: (line: string) => console.log(`  ${line}`) };
	for (const timeoutMs of [LONG_TIMEOUT_MS, undefined]) {
		try {
			await measuredBurst(ctx, mode, BURST, timeoutMs, out);
			console.log(`  ${describeFigures(out[out.length - 1])}`);
		} catch (e) {
			failures.push(`${mode}, ${(timeoutMs ?? 5000) / 1000} s: ${(e as Error).message}`);
			console.log(`  FAILED ${failures[failures.length - 1]}`);
		}
	}
}

export async function queueBurst(): Promise<{ burst: number; figures: BurstFigures[]; failures: string[] }> {
	console.log(`\nqueue-burst: ${BURST} callbacks at once, queue mode (2 workers) and one regular n8n process, per-attempt timeouts 300 s and 5 s`);
	const log = (line: string) => console.log(`  ${line}`);
	const running: Running = {};
	const stopAll = teardownOnSignals(running, { keep: false, log, onSignal: () => process.exit(130) });
	const figures: BurstFigures[] = [];
	const failures: string[] = [];
	try {
		const mock = (running.mock = await startMockService({}));
		const common = { serviceUrl: mock.url, serviceToken: mock.token, log };
		const queue = await startQueueStack({ ...common, callbackSecret: newCallbackSecret('bench-queue') });
		running.stack = queue;
		await bursts(mock, queue, queue.records, QUEUE_MODE, figures, failures);
		await queue.stop();
		queue.n8n.cleanup();
		running.stack = undefined;
		const regular = await startStack({ ...common, callbackSecret: newCallbackSecret('bench-regular') });
		running.stack = regular;
		const db = (running.db = N8nDb.forUserFolder(regular.n8n.userFolder));
		await bursts(mock, regular, db, REGULAR_MODE, figures, failures);
	} finally {
		await stopAll();
	}
	console.log(`\nCallback bursts, ${BURST} at once, mock retries 3 (backoff 100 ms doubling):\n${figuresTable(figures)}`);
	const out = join(PROJECT_ROOT, 'bench-results');
	mkdirSync(out, { recursive: true });
	writeFileSync(join(out, 'queue-burst.json'), JSON.stringify({ burst: BURST, figures, failures, at: new Date().toISOString() }, null, 2));
	console.log(`Written: ${join(out, 'queue-burst.json')}`);
	return { burst: BURST, figures, failures };
}
