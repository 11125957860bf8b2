/**
 * A service the contract runs against (the live one, or a mock), and one operation of the package's node run
 * against it in n8n-core's engine, with what the service answered on the way.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { moderationNode, runWorkflow } from '../../helpers/engine';
import { exchangeCount, exchangesSince, type Exchange } from './observe';
import type { Receiver } from './receiver';

/** What a mock offers besides the service: the vendor's dashboard (its account webhook, a person's decision). */
export interface Dashboard {
	setAccountWebhook(url: string | null): Promise<void>;
	decide(queueId: string, itemId: string, decision: 'accepted' | 'rejected'): Promise<void>;
}

export interface Target {
	/** `service` (what is checked) or `mock` (the reference: the project's mock, in this process) */
	role: 'service' | 'mock';
	baseUrl: string;
	secretKey: string;
	callbackSecret: string;
	/** A queue to add the one queue item to; undefined: the queue lines are not checked */
	queueId?: string;
	/** Where this target can reach the receiver; undefined: the callback lines are not checked */
	callbackUrl?: string;
	/** Whether the account webhook points at the receiver (`<callbackUrl>/account`) */
	accountWebhook: boolean;
	dashboard?: Dashboard;
	receiver: Receiver;
	/** How long to wait for a callback or a finished result */
	waitMs: number;
	/** Extra lines for the size probe (sends an 11 MiB body) */
	sizeProbe: boolean;
}

export interface NodeOutcome {
	items: IDataObject[];
	/** The node's error when it failed (On Error: Stop) */
	error?: { message: string; httpCode?: string; description?: string };
	/** Every request the node sent to the target during the run, with its answer */
	exchanges: Exchange[];
}

/** Runs the Content Moderation node with `parameters` on one item against `target`, as a user's workflow would. */
export async function operate(
	target: Target,
	parameters: INodeParameters,
	credentials: { secretKey?: string } = {},
): Promise<NodeOutcome> {
	const from = exchangeCount();
	const run = await runWorkflow({
		nodes: [moderationNode(parameters)],
		credentials: {
			contentModerationApi: {
				baseUrl: target.baseUrl,
				accessToken: credentials.secretKey ?? target.secretKey,
				callbackSecret: target.callbackSecret,
			},
		},
	});
	const failure = run.errorOf('Content Moderation') as (Error & { httpCode?: string; description?: string }) | undefined;
	return {
		items: failure ? [] : run.outputsOf('Content Moderation').flat().map((item) => item.json),
		error: failure && { message: failure.message, httpCode: failure.httpCode, description: failure.description ?? undefined },
		exchanges: exchangesSince(from, `${target.baseUrl}/`),
	};
}
