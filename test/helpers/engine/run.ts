/** Builds a Workflow with the harness's node types and credentials, runs it with n8n-core's WorkflowExecute. */
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeTypes,
	IRun,
	IRunData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	Workflow as WorkflowType,
} from 'n8n-workflow';
import { UnexpectedError, Workflow } from 'n8n-workflow';

import { everyString } from '../leaks';
import { loadCore } from './core';
import { HarnessCredentialsHelper } from './credentials';
import { createStartNode, HarnessNodeTypes, START_NODE_NAME, START_NODE_TYPE, type AnyNodeType } from './node-types';
import { chain, type NodeSpec } from './workflow';

const DEFAULT_WEBHOOK_BASE_URL = 'http://127.0.0.1:5678/';

interface RunWorkflowOptions {
	nodes: NodeSpec[];
	/** Defaults to Start → nodes[0] → nodes[1] … */
	connections?: IConnections;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Items the Start node emits (default one empty item). Binary `data` is base64 bytes. */
	items?: INodeExecutionData[];
	/** Extra node types by type name (e.g. n8n-nodes-base.httpRequest). */
	nodeTypes?: Record<string, AnyNodeType>;
	/** Extra credential types by name (e.g. httpHeaderAuth for the HTTP Request node). */
	credentialTypes?: Record<string, ICredentialType>;
	webhookBaseUrl?: string;
	/** Execution mode; default 'manual'. */
	mode?: 'manual' | 'trigger' | 'webhook' | 'internal';
}

export interface WorkflowRun {
	status: IRun['status'];
	/** The execution's error (the node error that stopped it), if any. */
	error?: ExecutionError;
	runData: IRunData;
	run: IRun;
	/** Items of one output of a node's first run; throws if the node did not run. */
	outputOf(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** All outputs of a node's first run. */
	outputsOf(nodeName: string): INodeExecutionData[][];
	/** The error a node's first run ended with, if any. */
	errorOf(nodeName: string): ExecutionError | undefined;
	/** Path of the temp folder holding n8n's binary data store. */
	binaryDataPath: string;
}

let executionCounter = 0;

interface PreparedWorkflow {
	workflow: WorkflowType;
	workflowData: IWorkflowBase;
	additionalData: IWorkflowExecuteAdditionalData;
	nodeTypes: INodeTypes;
	startNode: INode;
	core: typeof import('n8n-core');
}

/**
 * Builds the Workflow, node types and additionalData runWorkflow uses, for tests that need n8n-core
 * pieces directly (e.g. the trigger's real WebhookContext: `new core.WebhookContext(workflow, node,
 * additionalData, 'webhook', webhookData, [], null)`).
 */
export async function prepareWorkflow(options: RunWorkflowOptions): Promise<PreparedWorkflow> {
	const { core } = await loadCore();
	const mode = options.mode ?? 'manual';
	const items = options.items ?? [{ json: {} }];

	const nodeTypes = new HarnessNodeTypes({
		[START_NODE_TYPE]: createStartNode(items),
		...(options.nodeTypes ?? {}),
	});

	const startNode: INode = {
		id: 'start-node',
		name: START_NODE_NAME,
		type: START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodes: INode[] = [
		startNode,
		...options.nodes.map(
			(spec, index): INode => ({
				id: spec.id ?? `node-${index + 1}`,
				typeVersion: spec.typeVersion ?? 1,
				position: spec.position ?? [200 * (index + 1), 0],
				...spec,
			}),
		),
	];
	const connections =
		options.connections ?? chain(START_NODE_NAME, ...options.nodes.map((n) => n.name));

	const workflowId = 'harness-workflow';
	const executionId = String(++executionCounter);
	const workflow = new Workflow({
		id: workflowId,
		name: 'Harness workflow',
		nodes,
		connections,
		nodeTypes,
		active: false,
		settings: { executionOrder: 'v1' },
	});
	const workflowData = {
		id: workflowId,
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as IWorkflowBase;

	const hooks = new core.ExecutionLifecycleHooks(mode, executionId, workflowData);
	const base = (options.webhookBaseUrl ?? DEFAULT_WEBHOOK_BASE_URL).replace(/\/$/, '');
	const additionalData = {
		credentialsHelper: new HarnessCredentialsHelper(
			options.credentials ?? {},
			options.credentialTypes ?? {},
		),
		hooks,
		executionId,
		workflowId,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: `${base}/`,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		variables: {},
		executeWorkflow: async () => {
			throw new UnexpectedError('Sub-workflows are not supported by the test harness');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new UnexpectedError('Code nodes are not supported by the test harness');
		},
	} as unknown as IWorkflowExecuteAdditionalData;

	return { workflow, workflowData, additionalData, nodeTypes, startNode, core };
}

export async function runWorkflow(options: RunWorkflowOptions): Promise<WorkflowRun> {
	const { workflow, additionalData, startNode, core } = await prepareWorkflow(options);
	const mode = options.mode ?? 'manual';
	const execute = new core.WorkflowExecute(additionalData, mode);
	const run = await execute.run({ workflow, startNode });
	const runData = run.data.resultData.runData;
	const binaryDataPath = process.env.N8N_BINARY_DATA_STORAGE_PATH ?? '';

	const outputsOf = (nodeName: string): INodeExecutionData[][] => {
		const task = runData[nodeName]?.[0];
		if (!task) {
			const ran = Object.keys(runData).join(', ');
			const err = run.data.resultData.error;
			throw new UnexpectedError(
				`Node "${nodeName}" did not run (ran: ${ran}; execution error: ${err?.message ?? 'none'})`,
			);
		}
		return (task.data?.main ?? []).map((items) => items ?? []);
	};

	return {
		status: run.status,
		error: run.data.resultData.error,
		runData,
		run,
		outputsOf,
		outputOf: (nodeName, outputIndex = 0) => outputsOf(nodeName)[outputIndex] ?? [],
		errorOf: (nodeName) => runData[nodeName]?.[0]?.error,
		binaryDataPath,
	};
}

/** Serialises everything a run exposes (outputs, errors with description/stack) for leak checks. */
export function dumpRun(run: WorkflowRun): string {
	// Every string of the run, errors whole (JSON.stringify would call NodeApiError.toJSON and lose parts).
	return everyString(run.run).join('\n');
}
