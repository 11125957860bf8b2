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

export interface E2eContext {
	stack: Stack;
	mock: MockService;
	db: ExecutionRecords;
	log: (line: string) => void;
}

export function assert(cond: unknown, message: string): asserts cond {
	if (!cond) throw new Error(message);
}

/** Finished executions (not new/running/waiting) of a workflow, from execution_entity. */
export async function finishedExecutions(db: ExecutionRecords, workflowId: string) {
	const rows = await db.executions(workflowId);
	return rows.filter((r) => !['new', 'running', 'waiting'].includes(r.status));
}
