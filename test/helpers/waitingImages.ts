/**
 * Image > Moderate in Mode "Wait for Callback" through n8n-core's real engine: the execution is paused and
 * saved (test/helpers/engine/waiting.ts), the mock service's callbacks reach resume URLs served the way
 * n8n 2.41's WaitingWebhooks serves them, and every callback works on a freshly loaded execution.
 * `useWaitingImages()` starts the mock and the harness for a test file.
 */
import type { IConnections, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { startMockService, type MockService } from '../../dev/mock/server';
import { connect, moderateUrlParameters, moderationNode, startWaitingHarness, type EarlyCalls, type WaitingExecution, type WaitingHarness } from './engine';
import { probeNode } from './fixtures';
import { postCallback } from './webhook-server';
import { resetProcessState } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';

export const NODE = 'Content Moderation';
const PROBE_TYPE = 'harness.probe';

/** Start → Content Moderation, and each of its outputs → a probe reading `$('Start').item.json.name`. */
function withProbes(outputs: number) {
	const connections: IConnections = {};
	connect(connections, 'Start', NODE);
	const probes = Array.from({ length: outputs }, (_, index) => {
		const name = `Probe ${index}`;
		connect(connections, NODE, name, index);
		return { name, type: PROBE_TYPE, parameters: { value: "={{ $('Start').item.json.name }}" } };
	});
	return { connections, probes, nodeTypes: { [PROBE_TYPE]: probeNode } };
}

export function waitParameters(extra: INodeParameters = {}): INodeParameters {
	return moderateUrlParameters({ mode: 'waitCallback', waitTimeout: 600, ...extra });
}

export function urlItems(urls: string[]): INodeExecutionData[] {
	return urls.map((url, index) => ({ json: { name: `item-${index}`, url } }));
}

export const post = postCallback;

export interface StartExtra {
	saveDelayMs?: number;
	/** false: an n8n like 1.x (no resume token, no atomic resume) */
	resumeTokens?: boolean;
	onError?: 'continueRegularOutput';
	/** Adds a probe after each of this many outputs */
	probes?: number;
	/** Callbacks before the wait is saved: n8n's 409 (default) or held until it is saved */
	earlyCalls?: EarlyCalls;
}

export interface RunView {
	runData: Record<string, unknown>;
	outputOf(node: string): INodeExecutionData[];
}

/** What each probe saw: its own item's name and what `$('Start').item.json.name` resolved to. */
export function probed(run: RunView, probe: number): Array<{ own: unknown; paired: unknown }> {
	const name = `Probe ${probe}`;
	if (run.runData[name] === undefined) return [];
	return run.outputOf(name).map((item) => ({ own: item.json.own, paired: item.json.paired }));
}

export interface WaitingImages {
	readonly mock: MockService;
	credentials(): { contentModerationApi: { baseUrl: string; accessToken: string } };
	/** The callback URL the node gave the service for each submission, in submission order. */
	callbackUrls(): string[];
	gets(): number;
	startWaiting(parameters: INodeParameters, items: INodeExecutionData[], extra?: StartExtra): Promise<WaitingExecution>;
}

export function useWaitingImages(): WaitingImages {
	let mock: MockService;
	let harness: WaitingHarness;

	beforeAll(async () => {
		// Retries over about 25 s: a loaded machine can take seconds to save the waiting execution. An attempt
		// waits for its answer: on a loaded machine a callback that reads 50 results back outlasts a 5 s timeout.
		mock = await startMockService({ callbackRetries: 8, callbackBackoffMs: 100, callbackTimeoutMs: 120_000 });
		harness = await startWaitingHarness();
	});

	afterAll(async () => {
		// The service first: its pending retries would otherwise reach the harness after the tests.
		await mock?.stop();
		await harness?.stop();
	});

	beforeEach(() => {
		// Each case is a fresh n8n process: callbacks of the cases before (still delivered by the mock) must not
		// share this case's limiter, whose Retry-After pauses they would otherwise lengthen.
		resetProcessState();
		mock.configure({ processMs: 30, processJitterMs: 0, faultRate: 0 });
		mock.reset();
	});

	function credentials() {
		return { contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } };
	}

	/** The callback URL the node gave the service for each submission, in submission order. */
	function callbackUrls(): string[] {
		return mock.requests
			.filter((request) => request.method === 'POST' && request.path === '/image')
			.map((request) => String(((request.body as { options?: { callbackUrl?: string } }).options ?? {}).callbackUrl));
	}

	function gets(): number {
		return mock.requests.filter((request) => request.method === 'GET').length;
	}

	async function startWaiting(
		parameters: INodeParameters,
		items: INodeExecutionData[],
		extra: StartExtra = {},
	): Promise<WaitingExecution> {
		const probes = extra.probes ? withProbes(extra.probes) : undefined;
		return await harness.start({
			nodes: [moderationNode(parameters, extra.onError ? { onError: extra.onError } : {}), ...(probes?.probes ?? [])],
			connections: probes?.connections,
			nodeTypes: probes?.nodeTypes,
			credentials: credentials(),
			items,
			saveDelayMs: extra.saveDelayMs,
			resumeTokens: extra.resumeTokens,
			earlyCalls: extra.earlyCalls,
		});
	}

	return {
		get mock() {
			return mock;
		},
		credentials,
		callbackUrls,
		gets,
		startWaiting,
	};
}
