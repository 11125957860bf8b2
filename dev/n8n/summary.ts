/** Runs example workflows once in the started stack and reads what happened from n8n's records. */
import { N8nDb } from './db';
import { Stack } from './stack';

interface ExampleRun {
	executionId: number;
	status: string;
	items: Record<string, any[]>;
}

/** `n8n execute --id` (the workflow starts at its Manual Trigger); the result is read from the database. */
export async function executeWorkflow(stack: Stack, db: N8nDb, workflowId: string, timeoutMs = 180_000): Promise<ExampleRun> {
	const before = (await db.executions(workflowId)).map((r) => r.id);
	const r = await stack.n8n.cli(['execute', `--id=${workflowId}`, '--rawOutput'], timeoutMs);
	const rows = (await db.executions(workflowId)).filter((row) => !before.includes(row.id));
	if (rows.length !== 1) {
		throw new Error(
			`n8n execute --id=${workflowId} exited ${r.code} and recorded ${rows.length} executions:\n${(r.stdout + r.stderr).slice(-1500)}`,
		);
	}
	const detail = await db.execution(rows[0].id);
	return { executionId: detail.id, status: detail.status, items: detail.items };
}

export function verdictLine(result: any): string {
	const cats = (result?.nsfwCategories ?? []).map((c: any) => `${c.category} ${c.severity}`).join(', ');
	return `${result?.isSafe ? 'SAFE   ' : 'FLAGGED'} risk ${String(result?.riskScores?.overall ?? '?').padStart(3)}${cats ? ` (${cats})` : ''}`;
}
