/** The body of a queue item, shared by Queue > Add Item and Text > Moderate (versions 1-2). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiClient } from '../../transport/client';
import { addQueueItem } from '../../transport/endpoints';
import { getOptions, optionalString } from '../../validation/parameters';

/** POST /queues/{queueId} body (spec 4.3). */
export interface QueueItemBody extends IDataObject {
	type: 'text' | 'image';
	content: string;
	meta?: string;
	actorId?: string;
}

/** The item's Options > Metadata and Actor ID, only those that are set (so only they are sent). */
export function queueItemOptions(ctx: IExecuteFunctions, itemIndex: number): Pick<QueueItemBody, 'meta' | 'actorId'> {
	const options = getOptions(ctx, itemIndex);
	const fields: Pick<QueueItemBody, 'meta' | 'actorId'> = {};
	const meta = optionalString(options.meta);
	if (meta !== undefined) fields.meta = meta;
	const actorId = optionalString(options.actorId);
	if (actorId !== undefined) fields.actorId = actorId;
	return fields;
}

/**
 * Adds an item (one POST: the client never re-sends one the service may have acted on). The answer plus
 * queueId, so that a following Queue > Get Item can use {{ $json.queueId }} and {{ $json.id }}.
 */
export async function addItem(
	client: ApiClient,
	queueId: string,
	body: QueueItemBody,
	itemIndex: number,
): Promise<IDataObject> {
	const response = await addQueueItem(client, queueId, body, itemIndex);
	return { ...response.body, queueId };
}
