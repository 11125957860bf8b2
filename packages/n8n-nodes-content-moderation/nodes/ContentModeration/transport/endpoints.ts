/**
 * The service's endpoints, one function each: the only place that builds a path. Operations, pollers,
 * the waiting webhook and the trigger call these.
 */
import type { IDataObject } from 'n8n-workflow';

import { pathSegment } from './baseUrl';
import type { ApiClient, ApiResponse, RequestBody } from './client';

/** POST /image: the result (immediate), or `{ id }` with `defer` or a `callbackUrl`. */
export async function moderateImage(
	client: ApiClient,
	body: RequestBody,
	itemIndex?: number,
	secrets?: string[],
): Promise<ApiResponse<IDataObject>> {
	return await client.request<IDataObject>({ method: 'POST', path: '/image', body, itemIndex, secrets });
}

/** GET /image/{id}: an image moderation, once processed. */
export async function getImage(client: ApiClient, id: string, itemIndex?: number): Promise<ApiResponse<IDataObject>> {
	return await client.request<IDataObject>({ method: 'GET', path: `/image/${pathSegment(id)}`, itemIndex });
}

/** POST /text: the result with its `id` (immediate), or `{ id }` with `defer` or a `callbackUrl`. */
export async function moderateText(
	client: ApiClient,
	body: IDataObject,
	itemIndex?: number,
	secrets?: string[],
): Promise<ApiResponse<IDataObject>> {
	return await client.request<IDataObject>({ method: 'POST', path: '/text', body, itemIndex, secrets });
}

/** GET /text/{id}: a text moderation, once processed. */
export async function getText(client: ApiClient, id: string, itemIndex?: number): Promise<ApiResponse<IDataObject>> {
	return await client.request<IDataObject>({ method: 'GET', path: `/text/${pathSegment(id)}`, itemIndex });
}

/** DELETE /text/{id}. */
export async function deleteText(client: ApiClient, id: string, itemIndex?: number): Promise<ApiResponse<IDataObject>> {
	return await client.request<IDataObject>({ method: 'DELETE', path: `/text/${pathSegment(id)}`, itemIndex });
}

/** POST /queues/{queueId}: adds an item to a review queue. */
export async function addQueueItem(
	client: ApiClient,
	queueId: string,
	body: RequestBody,
	itemIndex?: number,
): Promise<ApiResponse<IDataObject>> {
	return await client.request<IDataObject>({ method: 'POST', path: `/queues/${pathSegment(queueId)}`, body, itemIndex });
}

/** GET /queues/{queueId}/items/{itemId}. */
export async function getQueueItem(
	client: ApiClient,
	queueId: string,
	itemId: string,
	itemIndex?: number,
): Promise<ApiResponse<IDataObject>> {
	const path = `/queues/${pathSegment(queueId)}/items/${pathSegment(itemId)}`;
	return await client.request<IDataObject>({ method: 'GET', path, itemIndex });
}
