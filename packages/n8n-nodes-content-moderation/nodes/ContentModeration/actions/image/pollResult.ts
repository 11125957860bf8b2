/** "Deferred and Wait": reads GET /image/{id} every Poll Interval until the result is there or Wait Timeout passes. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../helpers/errorItems';
import type { ApiClient } from '../../transport/client';
import { getImage } from '../../transport/endpoints';
import { isCompletion } from '../../inbound/readBack';
import { isNotFound, pollUntil, readPollTiming } from '../poll';

// The spec gives no processing times: these suit a few-second moderation without hammering the service.
export const DEFAULT_POLL_INTERVAL_SECONDS = 2;
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 60;

/** The API reference's image result has no id: the one asked for is added, so the item can be matched. */
export const withImageId = (id: string, result: IDataObject): IDataObject =>
	result.id === undefined ? { id, ...result } : result;

export async function pollResult(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ApiClient,
	id: string,
): Promise<IDataObject> {
	const timing = readPollTiming(this, itemIndex, {
		intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS,
		timeoutSeconds: DEFAULT_WAIT_TIMEOUT_SECONDS,
	});
	const result = await pollUntil(timing, async () => {
		try {
			const response = await getImage(client, id, itemIndex);
			return isCompletion(response.statusCode, response.body) ? withImageId(id, response.body) : undefined;
		} catch (error) {
			if (!isNotFound(error)) throw asNodeError(this, error, itemIndex);
			return undefined;
		}
	});
	if (result !== undefined) return result;

	throw new NodeOperationError(
		this.getNode(),
		`The moderation ${id} was not ready after ${timing.timeoutSeconds} seconds [item ${itemIndex}]`,
		{
			itemIndex,
			description: `The image is still being processed. Read the result later with Image > Get and Image ID "${id}", raise Wait Timeout, or use Mode "Deferred" with a Content Moderation Trigger.`,
		},
	);
}
