/** What every e2e case gets: the running stack, the mock service and helpers over n8n's own records. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ExecutionRecords } from '../../dev/n8n/db';
import { Stack } from '../../dev/n8n/stack';

import type { MockService } from '../../dev/mock/server';

/** The e2e's own workflows (test/e2e/workflows/*.json), imported beside the examples. */
export function e2eWorkflows(): string[] {
	const dir = join(__dirname, 'workflows');
	return readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.map((f) => join(dir, f));
}

export type MockHandle = MockService;

export interface E2eContext {
	stack: Stack;
	mock: MockHandle;
	db: ExecutionRecords;
	log: (line: string) => void;
}

export function assert(cond: unknown, message: string): asserts cond {
	if (!cond) throw new Error(message);
}

export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/** Polls `probe` until it returns a value other than undefined, bounded by time. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
	const t0 = Date.now();
	let last: unknown;
	while (Date.now() - t0 < timeoutMs) {
		try {
			const v = await probe();
			if (v !== undefined) return v;
		} catch (e) {
			last = e;
		}
		await sleep(everyMs);
	}
	throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

/** Finished executions (not new/running/waiting) of a workflow, from execution_entity. */
export async function finishedExecutions(db: ExecutionRecords, workflowId: string) {
	const rows = await db.executions(workflowId);
	return rows.filter((r) => !['new', 'running', 'waiting'].includes(r.status));
}
