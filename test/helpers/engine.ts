/**
 * In-process n8n engine harness: runs workflows through n8n-core's real `WorkflowExecute`
 * with our node classes loaded from source.
 *
 * What is real here (and why it matters for our tests):
 * - the execution engine (`WorkflowExecute`): pairing, `onError` (continueRegularOutput /
 *   continueErrorOutput), dynamic outputs, expression resolution of parameters;
 * - n8n-core's request helpers (`httpRequestWithAuthentication`), with a credentials helper that
 *   applies the credential type's `authenticate` block like n8n's CredentialsHelper does
 *   (expressions such as `={{$credentials.accessToken}}` are resolved by the workflow's
 *   expression engine), so requests carry the real Authorization header;
 * - binary data: n8n-core's BinaryDataService in filesystem mode in a temp dir, so the `data` field
 *   of a stored binary is the mode marker, not the bytes; nodes must call `getBinaryDataBuffer`;
 * - `additionalData.webhookBaseUrl`, so `getNodeWebhookUrl` resolves a trigger's production URL.
 *
 * Usage:
 *   const run = await runWorkflow({
 *     nodes: [moderationNode({ resource: 'image', operation: 'moderate', imageUrl })],
 *     credentials: { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } },
 *     items: [{ json: { a: 1 } }],
 *   });
 *   run.outputOf('Content Moderation');
 *
 * The harness adds a start node named `Start` (START_NODE_NAME) that emits `items`; when no
 * `connections` are given, Start and the listed nodes are chained in order (output 0 → input 0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type {
	ExecutionError,
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IRunData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	Workflow as WorkflowType,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	Workflow,
} from 'n8n-workflow';

export const PACKAGE_NAME = 'n8n-nodes-content-moderation';
/** Type names as n8n registers them for an installed community package. */
export const ACTION_NODE_TYPE = `${PACKAGE_NAME}.contentModeration`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.contentModerationTrigger`;
export const START_NODE_TYPE = 'harness.start';
export const START_NODE_NAME = 'Start';
export const CREDENTIAL_TYPE = 'contentModerationApi';
export const DEFAULT_WEBHOOK_BASE_URL = 'http://127.0.0.1:5678/';

type AnyNodeType = INodeType | IVersionedNodeType;

// ---------------------------------------------------------------------------------------------
// One-time process setup: n8n-core reads its settings from env and a DI container.
// ---------------------------------------------------------------------------------------------

interface CoreModules {
	core: typeof import('n8n-core');
	Container: { get<T>(cls: new (...args: never[]) => T): T };
}

let coreSetup: Promise<CoreModules> | undefined;

const tempDirs: string[] = [];

function removeTempDirs(): void {
	for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// Jest evaluates this module once per test file: clean up after that file. Outside jest (a tsx
// script such as the benchmark), clean up when the process exits.
if (typeof afterAll === 'function') afterAll(removeTempDirs);
else process.once('exit', removeTempDirs);

/**
 * n8n-core ships its own copy of @n8n/di; services must come from THAT container, so it is
 * resolved relative to n8n-core rather than from the top-level node_modules.
 */
function loadCore(): Promise<CoreModules> {
	coreSetup ??= (async () => {
		const root = mkdtempSync(path.join(tmpdir(), 'cm-engine-'));
		// Settings n8n-core reads at construction time; set before anything is instantiated.
		process.env.N8N_USER_FOLDER = root;
		process.env.N8N_ENCRYPTION_KEY ??= 'content-moderation-test-key';
		process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
		process.env.N8N_BINARY_DATA_STORAGE_PATH = path.join(root, 'binaryData');
		process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
		// n8n logs node errors it reports; quiet by default, N8N_LOG_LEVEL=debug shows them.
		process.env.N8N_LOG_LEVEL ??= 'silent';
		tempDirs.push(root);

		const core = (await import('n8n-core')) as typeof import('n8n-core');
		const coreDir = path.dirname(require.resolve('n8n-core'));
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const di = require(require.resolve('@n8n/di', { paths: [coreDir] })) as {
			Container: CoreModules['Container'];
		};
		const binaryData = di.Container.get(core.BinaryDataService);
		await binaryData.init();
		return { core, Container: di.Container };
	})();
	return coreSetup;
}

// ---------------------------------------------------------------------------------------------
// Node and credential types
// ---------------------------------------------------------------------------------------------

/** Our node classes, loaded lazily from source so a missing file only fails the tests using it. */
const OWN_NODE_LOADERS: Record<string, () => AnyNodeType> = {
	[ACTION_NODE_TYPE]: () =>
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		new (require('../../nodes/ContentModeration/ContentModeration.node').ContentModeration)(),
	[TRIGGER_NODE_TYPE]: () =>
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		new (require('../../nodes/ContentModerationTrigger/ContentModerationTrigger.node')
			.ContentModerationTrigger)(),
};

const OWN_CREDENTIAL_LOADERS: Record<string, () => ICredentialType> = {
	[CREDENTIAL_TYPE]: () =>
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		new (require('../../credentials/ContentModerationApi.credentials').ContentModerationApi)(),
};

/**
 * Loads a node class from any module path (e.g. n8n-nodes-base's HTTP Request node from a cached
 * n8n install): `loadNodeType('/…/dist/nodes/HttpRequest/HttpRequest.node.js', 'HttpRequest')`.
 */
export function loadNodeType(modulePath: string, className: string): AnyNodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const mod = require(modulePath) as Record<string, new () => AnyNodeType>;
	const cls = mod[className];
	if (typeof cls !== 'function') {
		throw new UnexpectedError(`${modulePath} does not export a class ${className}`);
	}
	return new cls();
}

/** Emits the items given to runWorkflow; binaries are put into the real binary data store. */
function createStartNode(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Start',
			name: 'start',
			group: ['trigger'],
			version: 1,
			description: 'Emits the test items',
			defaults: { name: START_NODE_NAME },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		} as INodeTypeDescription,
		async execute(this: IExecuteFunctions) {
			const out: INodeExecutionData[] = [];
			for (const item of items) {
				const stored: INodeExecutionData = { json: item.json };
				if (item.binary) {
					stored.binary = {};
					for (const [key, bin] of Object.entries(item.binary)) {
						// A test gives the bytes as base64 in `data`; store them like a real upload would.
						const buffer = Buffer.from(bin.data, 'base64');
						stored.binary[key] = await this.helpers.prepareBinaryData(
							buffer,
							bin.fileName,
							bin.mimeType,
						);
					}
				}
				out.push(stored);
			}
			return [out];
		},
	};
}

class HarnessNodeTypes implements INodeTypes {
	private readonly cache = new Map<string, AnyNodeType>();

	constructor(private readonly extra: Record<string, AnyNodeType>) {}

	private resolve(type: string): AnyNodeType {
		const cached = this.cache.get(type);
		if (cached) return cached;
		const loader = OWN_NODE_LOADERS[type];
		const nodeType = this.extra[type] ?? loader?.();
		if (!nodeType) throw new UnexpectedError(`Unknown node type in test workflow: ${type}`);
		this.cache.set(type, nodeType);
		return nodeType;
	}

	getByName(nodeType: string): AnyNodeType {
		return this.resolve(nodeType);
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.resolve(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}

// ---------------------------------------------------------------------------------------------
// Credentials helper: stored credentials by type, `authenticate` applied for real.
// ---------------------------------------------------------------------------------------------

class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
		private readonly credentialTypes: Record<string, ICredentialType>,
	) {
		super();
	}

	private type(name: string): ICredentialType {
		const extra = this.credentialTypes[name];
		if (extra) return extra;
		const loader = OWN_CREDENTIAL_LOADERS[name];
		if (!loader) throw new UnexpectedError(`Unknown credential type: ${name}`);
		return loader();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	/** Mirrors n8n's CredentialsHelper.authenticate for function and generic authenticate. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: WorkflowType,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		const options = requestOptions as IHttpRequestOptions;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, options);
		}
		if (authenticate?.type !== 'generic') return options;

		const resolve = (value: unknown): unknown => {
			if (typeof value !== 'string' || !value.startsWith('=')) return value;
			if (!workflow || !node) {
				throw new UnexpectedError('authenticate needs workflow and node to resolve expressions');
			}
			return workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
		};
		const target = options as unknown as Record<string, IDataObject | undefined>;
		const properties = (authenticate as IAuthenticateGeneric).properties as Record<
			string,
			IDataObject
		>;
		for (const [outerKey, inner] of Object.entries(properties)) {
			for (const [key, value] of Object.entries(inner)) {
				target[outerKey] ??= {};
				target[outerKey][String(resolve(key))] = resolve(value) as IDataObject[string];
			}
		}
		return options;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new UnexpectedError('getCredentials is not available in the test harness');
	}

	/** Like n8n, fills in the credential type's property defaults for unset fields. */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.credentials[type];
		if (!stored) throw new UnexpectedError(`No test credentials given for "${type}"`);
		const withDefaults: ICredentialDataDecryptedObject = {};
		for (const prop of this.type(type).properties) {
			if (prop.default !== undefined) withDefaults[prop.name] = prop.default as never;
		}
		return { ...withDefaults, ...stored };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string) {
		return this.type(type).properties;
	}
}

// ---------------------------------------------------------------------------------------------
// Workflow building helpers
// ---------------------------------------------------------------------------------------------

export type NodeSpec = Omit<INode, 'id' | 'typeVersion' | 'position'> &
	Partial<Pick<INode, 'id' | 'typeVersion' | 'position'>>;

export interface NodeOptions {
	name?: string;
	/** n8n's node setting "On Error": continueRegularOutput = the old "Continue On Fail". */
	onError?: INode['onError'];
	/** Set false to build a node without credentials (to test that failure). */
	withCredentials?: boolean;
	typeVersion?: number;
}

/** Node JSON for our action node, as a saved workflow would hold it. */
export function moderationNode(parameters: INodeParameters, options: NodeOptions = {}): NodeSpec {
	return {
		name: options.name ?? 'Content Moderation',
		type: ACTION_NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		parameters,
		...(options.onError ? { onError: options.onError } : {}),
		...(options.withCredentials === false
			? {}
			: { credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'Content Moderation account' } } }),
	};
}

/** Image > Moderate (immediate) of each input item's `url`, plus `extra` parameters. */
export function moderateUrlParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'image',
		operation: 'moderate',
		inputType: 'url',
		imageUrl: '={{ $json.url }}',
		mode: 'immediate',
		...extra,
	};
}

/** Node JSON for our trigger node, with a fixed webhookId as an imported workflow would have. */
export function triggerNode(
	parameters: INodeParameters,
	options: NodeOptions & { webhookId?: string } = {},
): NodeSpec {
	return {
		name: options.name ?? 'Content Moderation Trigger',
		type: TRIGGER_NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		webhookId: options.webhookId ?? '7b0f1c9e-5a52-4a3e-9a53-2d4c1f0e6b11',
		parameters,
		...(options.withCredentials === true
			? { credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'Content Moderation account' } } }
			: {}),
	};
}

/** Connections chaining the given node names in order, output 0 → input 0. */
export function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i + 1 < names.length; i++) {
		connect(connections, names[i], names[i + 1]);
	}
	return connections;
}

/** Adds one connection `from`[outputIndex] → `to`[0] to `connections` (returned for chaining). */
export function connect(
	connections: IConnections,
	from: string,
	to: string,
	outputIndex = 0,
): IConnections {
	connections[from] ??= { main: [] };
	const main = (connections[from].main ??= []);
	while (main.length <= outputIndex) main.push([]);
	(main[outputIndex] ??= []).push({ node: to, type: NodeConnectionTypes.Main, index: 0 });
	return connections;
}

/** A binary input item for runWorkflow: the harness stores the bytes in the filesystem store. */
export function binaryItem(
	bytes: Buffer,
	options: { property?: string; mimeType?: string; fileName?: string; json?: IDataObject } = {},
): INodeExecutionData {
	return {
		json: options.json ?? {},
		binary: {
			[options.property ?? 'data']: {
				data: bytes.toString('base64'),
				mimeType: options.mimeType ?? 'image/png',
				fileName: options.fileName ?? 'image.png',
			},
		},
	};
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

export interface RunWorkflowOptions {
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

export interface PreparedWorkflow {
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
	const seen = new WeakSet<object>();
	return JSON.stringify(run.run, (key, value: unknown) => {
		if (value instanceof Error) {
			return {
				...(value as unknown as IDataObject),
				message: value.message,
				stack: value.stack,
				description: (value as { description?: unknown }).description,
			};
		}
		if (typeof value === 'object' && value !== null) {
			if (seen.has(value)) return '[circular]';
			seen.add(value);
		}
		return value;
	});
}
