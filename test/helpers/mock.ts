/** One mock service per test file: started before its tests, reset before each, stopped after them. */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { startMockService, type MockService, type MockServiceOptions } from '../../dev/mock/server';
import { moderationNode, runWorkflow, type NodeOptions, type WorkflowRun } from './engine';

/** The mock's token in tests unless a test sets its own; distinctive, so that a leak check cannot match by accident. */
export const SECRET_TOKEN = 'cm-secret-token-7f3a91c2';

interface MockHandle {
	readonly service: MockService;
	/** Runs the action node with these parameters on these items against the mock. */
	run(
		parameters: INodeParameters,
		items?: INodeExecutionData[],
		options?: NodeOptions & { accessToken?: string; baseUrl?: string },
	): Promise<WorkflowRun>;
}

/** A well-formed id the mock cannot have issued: its "not found" (a malformed id is a 400 there). */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Defaults: processMs 50 and SECRET_TOKEN; `options` override them. Before each test the records are
 * cleared and the account settings (`webhookUrl`, `metadataKey`) are back to the file's options, so that a
 * test setting them cannot leak into the next one.
 */
export function useMock(options: MockServiceOptions = {}): MockHandle {
	let service: MockService | undefined;
	beforeAll(async () => {
		service = await startMockService({ processMs: 50, token: SECRET_TOKEN, ...options });
	});
	afterAll(async () => {
		await service?.stop();
	});
	beforeEach(() => {
		service?.reset();
		service?.configure({ webhookUrl: options.webhookUrl ?? null, metadataKey: options.metadataKey ?? 'both' });
	});

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
