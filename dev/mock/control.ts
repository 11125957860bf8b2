/**
 * Mock-only endpoints under `/__mock/`: what the vendor does in its dashboard, here over HTTP so that a
 * demo or an e2e run can drive it. They need the bearer token, but skip the simulated traffic limits.
 */
import type { Decision, QueueItem } from './endpoints';
import { jsonBody, type ParsedRequest, type Reply, type Route } from './http';
import type { ResolvedOptions, RuntimeOptions } from './options';
import { validateDecision, validateSettings } from './validation';

export const CONTROL_PREFIX = '/__mock/';

interface Control {
	options: ResolvedOptions;
	decide(queueId: string, itemId: string, decision: Decision): QueueItem;
	configure(changes: RuntimeOptions): void;
}

export function controlRoutes({ options, decide, configure }: Control): Route[] {
	const body = (request: ParsedRequest) => jsonBody(request, options.maxBodyBytes);
	const settings = (): Reply => ({ status: 200, body: { webhookUrl: options.webhookUrl, metadataKey: options.metadataKey } });
	return [
		{
			// A person accepts or rejects a pending item in the vendor's review queue.
			pattern: ['__mock', 'queues', ':queueId', 'items', ':itemId', 'decision'],
			methods: {
				POST: (params, request) => ({
					status: 200,
					body: decide(params.queueId, params.itemId, validateDecision(body(request))),
				}),
			},
		},
		{
			// The account's settings (the vendor's dashboard): the webhook URL, and which metadata key is read.
			pattern: ['__mock', 'settings'],
			methods: {
				GET: settings,
				POST: (_params, request) => {
					configure(validateSettings(body(request)));
					return settings();
				},
			},
		},
	];
}
