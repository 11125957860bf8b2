/** Runs example workflows once in the started stack and reads what happened from n8n's records. */
import { ExecutionDetail, ExecutionRecords } from './db';
import type { N8nRest } from './rest';
import { Stack } from './stack';

interface ExampleRun {
	executionId: number;
	status: string;
	items: Record<string, any[]>;
}

/**
 * Runs a saved workflow from its Manual Trigger through n8n's REST API, as the editor's Execute button does
 * (in queue mode main enqueues it for a worker), and resolves with the execution id once it has finished or
 * waits, as `n8n execute` would, without a CLI process of its own.
 */
export async function runManually(rest: N8nRest, db: ExecutionRecords, workflowId: string, timeoutMs: number): Promise<number> {
	const id = await rest.startManualRun(workflowId);
	const t0 = Date.now();
	while (Date.now() - t0 < timeoutMs) {
		const row = (await db.executions(workflowId)).find((e) => e.id === id);
		if (row && !['new', 'running'].includes(row.status) && dataWritten(await db.execution(id))) return id;
		await new Promise((res) => setTimeout(res, 300));
	}
	throw new Error(`execution ${id} of ${workflowId} not finished within ${timeoutMs / 1000}s`);
}

/**
 * Whether an execution's data matches its status: n8n 1.x on sqlite (pool size 0) writes the status and the
 * data in two updates (ExecutionRepository.updateExistingExecution), so for a moment a record can say
 * `success` over the data of its wait, or `waiting` over the data from before it.
 */
export function dataWritten(detail: ExecutionDetail): boolean {
	const waits = Boolean(detail.raw?.waitTill);
	if (detail.status === 'waiting') return waits;
	if (detail.status === 'success') return !waits && Object.keys(detail.raw?.resultData?.runData ?? {}).length > 0;
	return !waits;
}

/** Runs a workflow once (runManually) and reads what happened from n8n's records. */
export async function executeWorkflow(stack: Stack, db: ExecutionRecords, workflowId: string, timeoutMs = 180_000): Promise<ExampleRun> {
	const id = await runManually(stack.rest, db, workflowId, timeoutMs);
	const detail = await db.execution(id);
	return { executionId: detail.id, status: detail.status, items: detail.items };
}

export function verdictLine(result: any): string {
	const cats = (result?.nsfwCategories ?? []).map((c: any) => `${c.category} ${c.severity}`).join(', ');
	return `${result?.isSafe ? 'SAFE   ' : 'FLAGGED'} risk ${String(result?.riskScores?.overall ?? '?').padStart(3)}${cats ? ` (${cats})` : ''}`;
}

/** A workflow whose later executions the demo prints, one line each. */
export interface Followed {
	workflowId: string;
	describe(detail: ExecutionDetail): string;
}

/** Still going: printed once it has ended. */
const UNFINISHED = new Set(['new', 'running', 'waiting']);

/**
 * Prints a line for each execution of `followed` that ends after this is called (a callback, a review decision
 * made with the demo's curl line), reading n8n's records every `intervalMs`, until `signal` aborts.
 */
export async function followExecutions(
	db: ExecutionRecords,
	followed: Followed[],
	print: (line: string) => void,
	signal: AbortSignal,
	intervalMs = 1000,
): Promise<void> {
	const seen = new Set<number>();
	try {
		for (const f of followed) for (const row of await db.executions(f.workflowId)) seen.add(row.id);
		while (!signal.aborted) {
			await new Promise((resolve) => setTimeout(resolve, intervalMs));
			for (const f of followed) {
				if (signal.aborted) return;
				for (const row of await db.executions(f.workflowId)) {
					if (seen.has(row.id) || UNFINISHED.has(row.status)) continue;
					seen.add(row.id);
					print(f.describe(await db.execution(row.id)));
				}
			}
		}
	} catch (error) {
		// Stopping closes the records while a read may be under way.
		if (!signal.aborted) throw error;
	}
}

/** Example 03's trigger: the result it received and where the workflow sent it. */
export function describeResult(d: ExecutionDetail): string {
	const [result] = d.items['Moderation Completed'] ?? [];
	const decision = (d.items['Approve'] ?? []).length ? 'Approve' : (d.items['Send to Review'] ?? []).length ? 'Send to Review' : '-';
	return `  execution #${d.id} ${d.status}: id ${result?.id} ${verdictLine(result)} -> ${decision}`;
}

/** Example 08b (part B): the review decision it received and what it did with the comment. */
export function describeDecision(d: ExecutionDetail): string {
	const [decision] = d.items['Review Decision'] ?? [];
	const [published] = d.items['Publish Comment'] ?? [];
	const [removed] = d.items['Remove Comment'] ?? [];
	const done = published
		? `Publish Comment "${published.comment}"`
		: removed
			? `Remove Comment "${removed.comment}"`
			: (d.items['Still Pending'] ?? []).length
				? 'Still Pending'
				: 'nothing';
	return `  execution #${d.id} ${d.status}: item ${decision?.id} ${decision?.status ?? '?'} -> ${done}`;
}
