/** GET /text/{id}, shared by Text > Get and Text > Moderate. */
import type { IDataObject } from 'n8n-workflow';

import { pathSegment } from '../../transport/baseUrl';
import type { ApiClient, ApiResponse } from '../../transport/client';

export async function getTextModeration(
	client: ApiClient,
	id: string,
	itemIndex: number,
): Promise<ApiResponse<IDataObject>> {
	return await client.request<IDataObject>({ method: 'GET', path: `/text/${pathSegment(id)}`, itemIndex });
}
