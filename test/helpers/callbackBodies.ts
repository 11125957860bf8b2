/**
 * Callback bodies as the service sends them (`{event, data}` around an image result, a text result or a
 * review-queue item), and trigger servers that need no mock: a test file's servers are stopped
 * after its tests and the process's delivery memory is cleared before each.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startTriggerServer, TEST_CALLBACK_SECRET, type TriggerServer } from './webhook-server';
import { resetProcessState } from '../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/helpers/processState';

export const SECRET = 'cb-secret-events-5c1e';

export function imageResult(id: string = randomUUID(), extra: IDataObject = {}): IDataObject {
	return {
		id,
		isSafe: true,
		confidence: 93,
		description: 'A cat on a sofa',
		summary: { totalFlags: 0, contentRating: 'G', language: 'en', profanity: false },
		riskScores: { overall: 3 },
		topics: ['animals'],
		nsfwCategories: [],
		suggestedActions: { reject: false, review: false },
		hash: 'a1b2',
		meta: { postId: 'p-7' },
		...extra,
	};
}

export function textResult(id: string = randomUUID(), extra: IDataObject = {}): IDataObject {
	return {
		id,
		isSafe: false,
		confidence: 88,
		sentiment: 'negative',
		sentimentScore: 20,
		summary: { totalFlags: 1, contentRating: 'PG-13', language: 'en', profanity: true },
		riskScores: { overall: 70, spam: 2, toxicity: 80 },
		topics: [],
		nsfwCategories: [{ category: 'profanity', severity: 60 }],
		suggestedActions: { reject: true, review: false },
		content: 'you idiot',
		filteredContent: 'you *****',
		original: 'you idiot',
		meta: { commentId: 'c-9' },
		...extra,
	};
}

export function queueItem(decision: 'accepted' | 'rejected', id: string = randomUUID()): IDataObject {
	return {
		id,
		status: decision,
		accepted: decision === 'accepted',
		type: 'text',
		content: 'you idiot',
		moderation: textResult(),
		meta: { commentId: 'c-9' },
	};
}

export const result = (data: IDataObject) => ({ event: 'moderation.completed', data });
export const review = (data: IDataObject) => ({ event: 'queue.review.completed', data });

export interface TriggerOptions {
	baseUrl?: string;
	secret?: string;
	/** Another trigger node (default: the server's WEBHOOK_ID). */
	webhookId?: string;
}

/**
 * `trigger(parameters, options)`: a trigger node served over HTTP; servers a test
 * starts itself go in `servers` to be stopped with the others.
 */
export function useEnvelopeTriggers(): {
	trigger: (parameters?: INodeParameters, options?: TriggerOptions) => Promise<TriggerServer>;
	servers: TriggerServer[];
} {
	const servers: TriggerServer[] = [];
	afterAll(async () => {
		await Promise.all(servers.map(async (server) => await server.stop()));
	});
	beforeEach(() => resetProcessState());

	async function trigger(
		parameters: INodeParameters = {},
		options: TriggerOptions = {},
	): Promise<TriggerServer> {
		// Unless a test sets its own secret, a strong one that the server's URL carries.
		const secret = options.secret ?? TEST_CALLBACK_SECRET;
		const server = await startTriggerServer({
			parameters,
			credentials: { baseUrl: options.baseUrl ?? 'http://127.0.0.1:9', accessToken: 'tok-events-1', callbackSecret: secret },
			token: options.secret === undefined ? secret : undefined,
			webhookId: options.webhookId,
		});
		servers.push(server);
		return server;
	}
	return { trigger, servers };
}
