/**
 * One mock service and the trigger webhook servers of a test file: the mock started before its tests and
 * reset before each, every server stopped after them. The trigger's webhook() runs in n8n-core's real
 * WebhookContext behind real HTTP (see webhook-server.ts for what is real).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startMockService, type MockService } from '../../dev/mock/server';
import { startTriggerServer, TEST_CALLBACK_SECRET, type TriggerServer } from './webhook-server';
import { resetProcessState } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';

export const CALLBACK_TOKEN = 'cb-secret-7f3a-90c1';

/** A well-formed id the mock has not issued. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-00000000abcd';

export interface TriggerCallbacks {
	readonly mock: MockService;
	/** Servers a test starts itself go here to be stopped after the file's tests. */
	readonly servers: TriggerServer[];
	/**
	 * A trigger node's webhook served over HTTP, with the mock as its credential unless `withCredential` is
	 * false (then served as the editor's test URL: a published trigger needs one), and that credential's
	 * Callback Secret when `callbackSecret` is given; else a strong one that `webhookUrl` carries.
	 */
	trigger(parameters: INodeParameters, withCredential?: boolean, callbackSecret?: string): Promise<TriggerServer>;
	/**
	 * A full image result with its id, as a callback carries it: submitted deferred (the immediate answer has
	 * no id) and read back once processed; GET /image/{id} gives no id either, so it is added.
	 */
	moderate(imageUrl: string): Promise<IDataObject & { id: string }>;
	/** The mock's GET /image/{id} requests for this id. */
	imageReads(id: string): Array<MockService['requests'][number]>;
}

export function useTriggerCallbacks(): TriggerCallbacks {
	let service: MockService | undefined;
	const servers: TriggerServer[] = [];

	beforeAll(async () => {
		service = await startMockService({ processMs: 20 });
	});
	afterAll(async () => {
		await Promise.all(servers.map(async (server) => await server.stop()));
		await service?.stop();
	});
	// Each test's callbacks are new completions, also where a test sends one id again.
	beforeEach(() => {
		service?.reset();
		resetProcessState();
	});

	const fixture: TriggerCallbacks = {
		servers,
		get mock() {
			if (!service) throw new Error('mock service not started');
			return service;
		},
		async trigger(parameters, withCredential = true, callbackSecret) {
			const mock = fixture.mock;
			const secret = callbackSecret ?? TEST_CALLBACK_SECRET;
			const server = await startTriggerServer({
				parameters,
				credentials: withCredential ? { baseUrl: mock.url, accessToken: mock.token, callbackSecret: secret } : undefined,
				token: withCredential && callbackSecret === undefined ? secret : undefined,
				mode: withCredential ? 'webhook' : 'manual',
			});
			servers.push(server);
			return server;
		},
		async moderate(imageUrl) {
			const mock = fixture.mock;
			const headers = { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' };
			const response = await fetch(`${mock.url}/image`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ image: imageUrl, options: { defer: true } }),
				signal: AbortSignal.timeout(10_000),
			});
			expect(response.status).toBe(200);
			const { id } = (await response.json()) as { id: string };
			expect(typeof id).toBe('string');
			for (;;) {
				const read = await fetch(`${mock.url}/image/${id}`, { headers, signal: AbortSignal.timeout(10_000) });
				const result = (await read.json()) as IDataObject;
				if (typeof result.isSafe === 'boolean') return { ...result, id };
				await new Promise((resolve) => setTimeout(resolve, 10));
			}
		},
		imageReads(id) {
			return fixture.mock.requests.filter((r) => r.method === 'GET' && r.path === `/image/${id}`);
		},
	};
	return fixture;
}

/** An ISO timestamp taken while the test ran. */
export function expectReceivedAt(value: unknown, before: number) {
	expect(typeof value).toBe('string');
	const time = Date.parse(value as string);
	expect(new Date(time).toISOString()).toBe(value);
	expect(time).toBeGreaterThanOrEqual(before - 1000);
	expect(time).toBeLessThanOrEqual(Date.now() + 1000);
}
