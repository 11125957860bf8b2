/** Shared setup of the action-node tests: one mock service per test file, runs with its credential. */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { dumpRun, moderationNode, runWorkflow, type NodeOptions, type WorkflowRun } from '../helpers/engine';
import { startMockService, type MockService, type MockServiceOptions } from '../../dev/mock/server';

export const NODE_NAME = 'Content Moderation';
/** Distinctive, so that a leak check cannot match by accident. */
export const SECRET_TOKEN = 'cm-secret-token-7f3a91c2';

export interface MockHandle {
	readonly service: MockService;
	/** Runs the action node with these parameters on these items against the mock. */
	run(
		parameters: INodeParameters,
		items?: INodeExecutionData[],
		options?: NodeOptions & { accessToken?: string; baseUrl?: string },
	): Promise<WorkflowRun>;
}

export function useMock(options: MockServiceOptions = {}): MockHandle {
	let service: MockService | undefined;
	beforeAll(async () => {
		service = await startMockService({ processMs: 50, token: SECRET_TOKEN, ...options });
	});
	afterAll(async () => {
		await service?.stop();
	});
	beforeEach(() => service?.reset());

	const handle: MockHandle = {
		get service() {
			if (!service) throw new Error('mock service not started');
			return service;
		},
		run: async (parameters, items, nodeOptions = {}) =>
			await runWorkflow({
				nodes: [moderationNode(parameters, nodeOptions)],
				credentials: {
					contentModerationApi: {
						baseUrl: nodeOptions.baseUrl ?? handle.service.url,
						accessToken: nodeOptions.accessToken ?? handle.service.token,
					},
				},
				items,
			}),
	};
	return handle;
}

/** The node's output items (first output). */
export function output(run: WorkflowRun): INodeExecutionData[] {
	return run.outputOf(NODE_NAME);
}

/** Asserts the token is nowhere in the run: outputs, errors, descriptions, stacks. */
export function expectNoToken(run: WorkflowRun, token: string): void {
	expect(token.length).toBeGreaterThan(3);
	expect(dumpRun(run)).not.toContain(token);
}

/** The node error the run stopped with. */
export function nodeError(run: WorkflowRun) {
	const error = run.errorOf(NODE_NAME) as
		| (Error & { description?: string; httpCode?: string; context?: { itemIndex?: number } })
		| undefined;
	if (!error) throw new Error(`expected the node to fail; status ${run.status}`);
	return error;
}
