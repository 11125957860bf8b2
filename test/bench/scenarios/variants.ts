/** The variants S1 and S2 compare: this node at its defaults, HTTP Request at its defaults (and with Retry On Fail). */
import type { INodeExecutionData } from 'n8n-workflow';

import { DEFAULT_MAX_CONCURRENCY } from '../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/descriptions/requestOptions';
import { runHttpRequestNodeWith, runOurNodeWith, type HttpRequestKit, type NodeRunOutcome, type Target } from '../workloads';

export interface Variant {
	id: string;
	label: string;
	color: string;
	run: (items: INodeExecutionData[]) => Promise<NodeRunOutcome>;
}

export function scenarioVariants(kit: HttpRequestKit | undefined, target: Target, withRetryOnFail: boolean): Variant[] {
	const variants: Variant[] = [
		{
			id: 'node_default',
			label: `Content Moderation node, default settings (adaptive, Max Concurrency ${DEFAULT_MAX_CONCURRENCY})`,
			color: '#1f6feb',
			run: (items) => runOurNodeWith(target, items, {}),
		},
	];
	if (kit) {
		variants.push({
			id: 'http_default',
			label: `HTTP Request ${kit.version}, default settings (no Batching option: all items at once)`,
			color: '#e8710a',
			run: (items) => runHttpRequestNodeWith(kit, target, items),
		});
		if (withRetryOnFail) {
			variants.push({
				id: 'http_retry_on_fail',
				label: `HTTP Request ${kit.version}, node setting Retry On Fail on (3 tries, 1000 ms apart)`,
				color: '#a34fd1',
				run: (items) => runHttpRequestNodeWith(kit, target, items, undefined, { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 }),
			});
		}
	}
	return variants;
}
