/**
 * Waiting executions, in process: a workflow runs through n8n-core's real WorkflowExecute until a node
 * calls putExecutionToWait; its run data is then "saved" (serialised to JSON; n8n stores it as flatted
 * execution data) and an HTTP server answers `/webhook-waiting/<executionId>/<suffix>` the way n8n
 * 2.41's WaitingWebhooks + webhook-helpers do:
 * - unknown execution 404; `signature` checked against the saved `resumeToken` (401 `Invalid token`);
 *   a call while the execution runs (not saved yet, or resumed) or after it finished: 409 (with
 *   `earlyCalls: 'wait'`, a call before the first save waits for it instead);
 * - each call reads the saved execution afresh (a new Workflow, node type instance and WebhookContext,
 *   like another n8n process or an n8n that restarted), disables the waiting node, pops its run, and
 *   calls the node's `webhook()`;
 * - `noWebhookResponse`: the node answered; no `workflowData`: 200 with `webhookResponse` and the
 *   execution stays waiting; `workflowData`: the resume is claimed once (a second concurrent claim gets
 *   500, as ExecutionAlreadyResumingError), the answer is sent, the data becomes the node's output
 *   (`forwardAllOutputs`, all outputs) and WorkflowExecute.processRunExecutionData runs the rest (the answer
 *   goes before it for the webhook's `responseMode` `onReceived`, n8n's default, else once it ended);
 * - a thrown `webhook()`: 500 and the execution is resumed with its run data wiped and the error set
 *   (n8n's behaviour, recorded so tests can assert it never happens).
 * With `resumeTokens: false` it behaves like n8n 1.x instead: no resume token (resume URLs unsigned and
 * unchecked) and no atomic claim (every call whose webhook() returns data resumes the execution, even
 * while another resume runs).
 * `expire()` does what n8n's WaitTracker does when the wait time runs out: processRunExecutionData on
 * the saved data, where n8n-core disables the node and passes its input through.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

import { createRunExecutionData } from 'n8n-workflow';
import type { IRun } from 'n8n-workflow';

import { waitFor } from '../../../dev/wait';
import { describeRun, prepareWorkflow, type RunWorkflowOptions, type WorkflowRun } from './run';
import { load, resumeWith, store, type ExecutionRecord, type HarnessStatus, type WaitingCall } from './waitingRecord';
import { answerResumeCall, send } from './waitingWebhook';

/**
 * Calls that arrive before the execution is first saved as waiting: `conflict` (default) answers 409 as n8n
 * does, and the sender must try again later; `wait` holds them until it is saved, for tests about what
 * happens once it waits, which then do not depend on the sender retrying long enough on a loaded machine.
 */
export type EarlyCalls = 'conflict' | 'wait';

export interface WaitingExecution {
	id: string;
	readonly status: HarnessStatus;
	/** The last IRun WorkflowExecute returned (waiting or finished) */
	readonly run: IRun | undefined;
	/** The resume URL base `$execution.resumeUrl` had: `<base>/webhook-waiting/<id>?signature=<token>` */
	readonly resumeToken: string | undefined;
	readonly waitTill: Date | undefined;
	/** Every call to a resume URL of this execution, in the order they were answered */
	calls: WaitingCall[];
	/** How many times the execution was resumed (by a callback or by expire()) */
	readonly resumes: number;
	/** Set when a webhook() threw (n8n then resumes with the run data wiped) */
	readonly webhookThrew: boolean;
	/** Resolves with the run once the execution finished; rejects after timeoutMs */
	finished(timeoutMs?: number): Promise<WorkflowRun>;
	/** Resolves once the execution is saved as waiting */
	waiting(timeoutMs?: number): Promise<void>;
	/** n8n's WaitTracker at the wait limit */
	expire(): Promise<WorkflowRun>;
}

export interface WaitingHarness {
	baseUrl: string;
	/**
	 * Starts a workflow. `saveDelayMs` holds the execution in "running" that long after WorkflowExecute
	 * returned, so callbacks arriving before the wait is saved get n8n's 409.
	 */
	start(
		options: Omit<RunWorkflowOptions, 'webhookBaseUrl'> & { saveDelayMs?: number; resumeTokens?: boolean; earlyCalls?: EarlyCalls },
	): Promise<WaitingExecution>;
	stop(): Promise<void>;
}

export async function startWaitingHarness(): Promise<WaitingHarness> {
	const records = new Map<string, ExecutionRecord>();
	const inFlight = new Set<Promise<void>>();
	let baseUrl = '';

	const server = createServer((req, res) => {
		const handling: Promise<void> = (async () => {
			const match = /^\/webhook-waiting\/([^/?]+)(?:\/([^?]*))?/.exec(req.url ?? '');
			const record = match ? records.get(match[1]) : undefined;
			if (!match || !record || req.method !== 'POST') {
				send(res, 404, { message: 'The requested webhook is not registered.' });
				return;
			}
			await record.firstSave;
			await answerResumeCall(record, req, res, match[2] ?? '', baseUrl);
		})()
			.catch((error: unknown) => send(res, 500, { message: String(error) }))
			.finally(() => inFlight.delete(handling));
		inFlight.add(handling);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	return {
		baseUrl,
		async start(options) {
			const { saveDelayMs = 0, resumeTokens = true, earlyCalls = 'conflict', ...rest } = options;
			const runOptions: RunWorkflowOptions = { ...rest, webhookBaseUrl: baseUrl };
			const prepared = await prepareWorkflow(runOptions);
			const id = String(prepared.additionalData.executionId);
			const record: ExecutionRecord = {
				id,
				atomic: resumeTokens,
				status: 'running',
				options: runOptions,
				calls: [],
				resumes: 0,
				webhookThrew: false,
			};
			let saved = () => {};
			if (earlyCalls === 'wait') record.firstSave = new Promise<void>((resolve) => (saved = resolve));
			records.set(id, record);
			// Held early calls go on once it is saved, or if it fails before (they then get n8n's 409).
			try {
				const mode = options.mode ?? 'manual';
				let run: IRun;
				if (resumeTokens) {
					const execute = new prepared.core.WorkflowExecute(prepared.additionalData, mode);
					run = await execute.run({ workflow: prepared.workflow, startNode: prepared.startNode });
				} else {
					// What WorkflowExecute.run does, with the run data of an n8n that has no resume tokens.
					const data = createRunExecutionData({
						executionData: {
							nodeExecutionStack: [{ node: prepared.startNode, data: { main: [[{ json: {} }]] }, source: null }],
						},
					});
					delete (data as { resumeToken?: string }).resumeToken;
					const execute = new prepared.core.WorkflowExecute(prepared.additionalData, mode, data);
					run = await execute.processRunExecutionData(prepared.workflow);
				}
				if (saveDelayMs > 0) await delay(saveDelayMs);
				store(record, run);
			} finally {
				saved();
			}

			return {
				id,
				get status() {
					return record.status;
				},
				get run() {
					return record.run;
				},
				get resumeToken() {
					return record.run?.data.resumeToken;
				},
				get waitTill() {
					return record.run?.waitTill ?? undefined;
				},
				calls: record.calls,
				get resumes() {
					return record.resumes;
				},
				get webhookThrew() {
					return record.webhookThrew;
				},
				async finished(timeoutMs = 10_000) {
					await waitFor(`execution ${id} to finish`, () => (record.status === 'finished' ? true : undefined), timeoutMs, 20);
					return describeRun(record.run as IRun);
				},
				async waiting(timeoutMs = 10_000) {
					await waitFor(`execution ${id} to wait`, () => (record.status === 'waiting' ? true : undefined), timeoutMs, 20);
				},
				async expire() {
					if (record.status !== 'waiting') throw new Error(`execution ${id} is ${record.status}, not waiting`);
					record.status = 'running';
					await resumeWith(record, await load(record, baseUrl));
					return describeRun(record.run as IRun);
				},
			};
		},
		async stop() {
			// Calls already inside webhook() or a resumed run finish first (n8n would finish them too).
			await Promise.allSettled([...inFlight]);
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
