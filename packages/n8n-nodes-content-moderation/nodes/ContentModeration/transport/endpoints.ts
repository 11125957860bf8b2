/** The service's endpoints: the only place that builds a path. */
import type { IDataObject } from 'n8n-workflow';

import { pathSegment } from './baseUrl';
import type { ApiClient, ApiResponse, RequestBody } from './client';

type Reply = Promise<ApiResponse<IDataObject>>;

/** The result (immediate), or `{ id }` with `defer` or a `callbackUrl`. */
export const moderateImage = async (
	client: ApiClient,
	body: RequestBody,
	itemIndex?: number,
	secrets?: string[],
): Reply => await client.request<IDataObject>({ method: 'POST', path: '/image', body, itemIndex, secrets });

export const getImage = async (client: ApiClient, id: string, itemIndex?: number): Reply =>
	await client.request<IDataObject>({ method: 'GET', path: `/image/${pathSegment(id)}`, itemIndex });

/** The result with its `id` (immediate), or `{ id }` with `defer` or a `callbackUrl`. */
export const moderateText = async (
	client: ApiClient,
	body: IDataObject,
	itemIndex?: number,
	secrets?: string[],
): Reply => await client.request<IDataObject>({ method: 'POST', path: '/text', body, itemIndex, secrets });

export const getText = async (client: ApiClient, id: string, itemIndex?: number): Reply =>
	await client.request<IDataObject>({ method: 'GET', path: `/text/${pathSegment(id)}`, itemIndex });

export const deleteText = async (client: ApiClient, id: string, itemIndex?: number): Reply =>
	await client.request<IDataObject>({ method: 'DELETE', path: `/text/${pathSegment(id)}`, itemIndex });

export const addQueueItem = async (client: ApiClient, queueId: string, body: RequestBody, itemIndex?: number): Reply =>
	await client.request<IDataObject>({ method: 'POST', path: `/queues/${pathSegment(queueId)}`, body, itemIndex });

export const getQueueItem = async (client: ApiClient, queueId: string, itemId: string, itemIndex?: number): Reply =>
	await client.request<IDataObject>({
		method: 'GET',
		path: `/queues/${pathSegment(queueId)}/items/${pathSegment(itemId)}`,
		itemIndex,
	});
