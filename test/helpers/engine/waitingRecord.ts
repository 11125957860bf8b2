/**
 * One execution of the waiting harness (waiting.ts) as n8n keeps it between calls: its status, the run data
 * it saved when it began to wait, and how to load it afresh and resume it, as another n8n process would.
 */
import type { IDataObject, IRun, IRunExecutionData } from 'n8n-workflow';

import { prepareWorkflow, type RunWorkflowOptions } from './run';

export interface WaitingCall {
	status: number;
	body: unknown;
	/** Whether this call resumed the execution */
	resumed: boolean;
	query: IDataObject;
}

export type HarnessStatus = 'running' | 'waiting' | 'finished';

export interface ExecutionRecord {
	id: string;
	/** false: n8n 1.x (no resume token, no atomic claim) */
	atomic: boolean;
	status: HarnessStatus;
	saved?: string;
	run?: IRun;
	options: RunWorkflowOptions;
	calls: WaitingCall[];
	resumes: number;
	webhookThrew: boolean;
	/** Set when calls that arrive before the first save wait for it (instead of n8n's 409): resolves then */
	firstSave?: Promise<void>;
}

/** Stores what WorkflowExecute returned: waiting (saved) or finished. */
export function store(record: ExecutionRecord, run: IRun): void {
	record.run = run;
	if (run.waitTill) {
		record.saved = JSON.stringify(run.data);
		record.status = 'waiting';
	} else {
		record.status = 'finished';
	}
}

/** A fresh Workflow, node types and additionalData bound to this execution id (another "process"). */
export async function load(record: ExecutionRecord, baseUrl: string) {
	const prepared = await prepareWorkflow({ ...record.options, webhookBaseUrl: baseUrl });
	const mode = record.options.mode ?? 'manual';
	const additionalData = {
		...prepared.additionalData,
		executionId: record.id,
		hooks: new prepared.core.ExecutionLifecycleHooks(mode, record.id, prepared.workflowData),
	};
	const data = JSON.parse(record.saved ?? 'null') as IRunExecutionData;
	const expression = prepared.workflow.expression as { acquireIsolate?: () => Promise<unknown> };
	await expression.acquireIsolate?.();
	return { ...prepared, mode, additionalData, data };
}

export type Loaded = Awaited<ReturnType<typeof load>>;

export async function resumeWith(record: ExecutionRecord, loaded: Loaded): Promise<void> {
	record.resumes++;
	const execute = new loaded.core.WorkflowExecute(loaded.additionalData, loaded.mode, loaded.data);
	store(record, await execute.processRunExecutionData(loaded.workflow));
}
