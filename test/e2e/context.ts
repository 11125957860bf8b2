/** What every e2e case gets: the running stack, the mock service and helpers over n8n's own records. */
import { N8nDb } from '../../dev/n8n/db';
import { Stack } from '../../dev/n8n/stack';

import type { MockService } from '../../dev/mock/server';

export interface E2eContext {
	stack: Stack;
	mock: MockService;
	db: N8nDb;
	log: (line: string) => void;
}

export function assert(cond: unknown, message: string): asserts cond {
	if (!cond) throw new Error(message);
}

/** Finished executions (not new/running/waiting) of a workflow, from execution_entity. */
export async function finishedExecutions(db: N8nDb, workflowId: string) {
	const rows = await db.executions(workflowId);
	return rows.filter((r) => !['new', 'running', 'waiting'].includes(r.status));
}
