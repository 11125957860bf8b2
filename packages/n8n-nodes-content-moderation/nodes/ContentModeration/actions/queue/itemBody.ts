/** The body of a queue item (Queue > Add Item). */
import type { IDataObject, IExecuteFunctions, JsonValue } from 'n8n-workflow';

import { putMetadata, queueMetadataValue } from '../../helpers/metadata';
import type { ApiClient, UnreadBody } from '../../transport/client';
import { addQueueItem } from '../../transport/endpoints';
import { ensure, getActorId, getOptions } from '../../validation/parameters';

/** POST /queues/{queueId} body (spec 4.3; the API reference types the metadata as an object). */
export interface QueueItemBody extends IDataObject {
	type: 'text' | 'image';
	content: string;
	meta?: JsonValue;
	metadata?: JsonValue;
	actorId?: string;
}

type ItemFields = Pick<QueueItemBody, 'meta' | 'metadata' | 'actorId'>;

/** The item's Options > Metadata and Actor ID, only those that are set (so only they are sent). */
export function queueItemOptions(ctx: IExecuteFunctions, itemIndex: number): ItemFields {
	const options = getOptions(ctx, itemIndex);
	const fields: ItemFields = {};
	const meta = ensure(ctx, itemIndex, queueMetadataValue(options.meta));
	if (meta !== undefined) putMetadata(fields, meta);
	const actorId = getActorId(ctx, itemIndex, options);
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
	body: QueueItemBody | UnreadBody<QueueItemBody>,
	itemIndex: number,
): Promise<IDataObject> {
	const response = await addQueueItem(client, queueId, body, itemIndex);
	return { ...response.body, queueId };
}
