/** The service's endpoints: the only place that builds a path. */
import type { IDataObject } from 'n8n-workflow';

import { pathSegment } from './baseUrl';
import type { ApiClient, ApiResponse, RequestBody } from './client';

type Reply = Promise<ApiResponse<IDataObject>>;
type Submit = (client: ApiClient, body: RequestBody, itemIndex?: number, secrets?: string[]) => Reply;
export type ById = (client: ApiClient, id: string, itemIndex?: number) => Reply;

/** The result (immediate), or `{ id }` with `defer` or a `callbackUrl`. */
export const moderateImage: Submit = async (client, body, itemIndex, secrets) =>
	await client.request({ method: 'POST', path: '/image', body, itemIndex, secrets });

export const getImage: ById = async (client, id, itemIndex) =>
	await client.request({ method: 'GET', path: `/image/${pathSegment(id)}`, itemIndex });

/** The result with its `id` (immediate), or `{ id }` with `defer` or a `callbackUrl`. */
export const moderateText: Submit = async (client, body, itemIndex, secrets) =>
	await client.request({ method: 'POST', path: '/text', body, itemIndex, secrets });

export const getText: ById = async (client, id, itemIndex) =>
	await client.request({ method: 'GET', path: `/text/${pathSegment(id)}`, itemIndex });

export const deleteText: ById = async (client, id, itemIndex) =>
	await client.request({ method: 'DELETE', path: `/text/${pathSegment(id)}`, itemIndex });

export const addQueueItem = async (client: ApiClient, queueId: string, body: RequestBody, itemIndex?: number): Reply =>
	await client.request({ method: 'POST', path: `/queues/${pathSegment(queueId)}`, body, itemIndex });

export const getQueueItem = async (client: ApiClient, queueId: string, itemId: string, itemIndex?: number): Reply => {
	const path = `/queues/${pathSegment(queueId)}/items/${pathSegment(itemId)}`;
	return await client.request({ method: 'GET', path, itemIndex });
};
