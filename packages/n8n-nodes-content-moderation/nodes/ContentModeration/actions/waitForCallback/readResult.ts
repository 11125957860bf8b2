/** Reading one waiting item's result back from the service, by the callbacks' one rule (inbound/readBack.ts). */
import { NodeApiError, type IDataObject } from 'n8n-workflow';

import type { ApiClient, ApiResponse } from '../../transport/client';
import { isCompletion } from '../../inbound/readBack';
import { isNotFound } from '../image/pollResult';
import type { Outcome } from './memory';

export type ResultReader = (client: ApiClient, id: string, itemIndex?: number) => Promise<ApiResponse<IDataObject>>;

/** One read of moderation `id`; never throws. */
export async function readResultOnce(
	read: ResultReader,
	client: ApiClient,
	id: string,
	itemIndex: number,
): Promise<Outcome> {
	try {
		const response = await read(client, id, itemIndex);
		if (!isCompletion(response.statusCode, response.body)) return { pending: true };
		// An image result read back has no id (API reference): the one waited for is added.
		return { result: response.body.id === undefined ? { id, ...response.body } : response.body };
	} catch (error) {
		// The id came from the service: a 404 means "not stored yet", as in Deferred and Wait.
		if (isNotFound(error)) return { pending: true };
		const status = error instanceof NodeApiError && error.httpCode ? `HTTP ${error.httpCode}` : 'no answer';
		return { failed: `reading a result failed (${status})` };
	}
}
