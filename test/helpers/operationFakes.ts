/**
 * An operation's execute() called directly, without n8n's engine: a context whose node parameters come from an
 * object (an absent one gives the caller's fallback, as n8n does), and a run whose client records each request
 * (a lazy body read, as the real client reads it) and answers it.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { NodeRun } from '@package/nodes/ContentModeration/actions/operation';
import { contentModerationNode } from './fixtures';

export function executeContext(parameters: IDataObject, more: Partial<Record<keyof IExecuteFunctions, unknown>> = {}) {
	return {
		getNode: () => contentModerationNode,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) => (name in parameters ? parameters[name] : fallback),
		getInputData: () => [{ json: {} }],
		...more,
	} as unknown as IExecuteFunctions;
}

export interface SentRequest {
	method: string;
	path: string;
	body?: IDataObject;
	itemIndex?: number;
}

type Lazy = { read?: () => Promise<IDataObject> };

/** A run whose client answers `answer(request)` with a 200 (or `status(request)`); `sent` lists the requests in order. */
export function fakeRun(answer: (request: SentRequest) => IDataObject = () => ({}), status = (_request: SentRequest) => 200) {
	const sent: SentRequest[] = [];
	const client = {
		secrets: [] as string[],
		async request({ method, path, body, itemIndex }: SentRequest & { body?: IDataObject & Lazy }) {
			const read = typeof body?.read === 'function' ? await body.read() : body;
			const request = { method, path, body: read, itemIndex };
			sent.push(request);
			return { statusCode: status(request), headers: {}, body: answer(request) };
		},
		callbackSecret: async () => '',
		baseUrl: async () => 'https://cm.test',
	};
	const run = { client, maxImageBytes: 20 * 1024 * 1024, hints: [] } as unknown as NodeRun;
	return { run, sent };
}

/** The error a call rejected with (fails the test when it resolved). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { description?: string | null }> {
	const outcome = await promise.then(
		() => undefined,
		(error: unknown) => error,
	);
	if (!(outcome instanceof Error)) throw new Error('expected a rejection');
	return outcome;
}
