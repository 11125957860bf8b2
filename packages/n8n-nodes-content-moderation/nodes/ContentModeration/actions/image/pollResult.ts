/** "Deferred and Wait": reads GET /image/{id} every Poll Interval until the result is there or Wait Timeout passes. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { asNodeError } from '../../helpers/errorItems';
import { pathSegment } from '../../transport/baseUrl';
import type { ApiClient } from '../../transport/client';
import { hasAnalysis } from '../../verdict/rules';

/**
 * Polling defaults. The spec gives no processing times, so these suit a few-second moderation without
 * hammering the service; change them here.
 */
export const DEFAULT_POLL_INTERVAL_SECONDS = 2;
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 60;
export const MIN_POLL_INTERVAL_SECONDS = 0.1;

/**
 * Whether a GET /image/{id} answer is the finished result. The mock answers 202 with
 * {status: "processing"} while it works; anything without a boolean isSafe is not a result yet.
 */
export function isResultReady(statusCode: number, body: unknown): boolean {
	if (statusCode === 202) return false;
	return hasAnalysis(body as IDataObject);
}

/**
 * A 404 while polling counts as "not ready": the id came from the service itself a moment ago, so a
 * 404 means the result is not stored yet rather than a wrong id.
 */
function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

export async function pollResult(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ApiClient,
	id: string,
): Promise<IDataObject> {
	const pollSeconds = Math.max(
		MIN_POLL_INTERVAL_SECONDS,
		Number(this.getNodeParameter('pollInterval', itemIndex, DEFAULT_POLL_INTERVAL_SECONDS)) ||
			DEFAULT_POLL_INTERVAL_SECONDS,
	);
	const timeoutSeconds = Math.max(
		0,
		Number(this.getNodeParameter('waitTimeout', itemIndex, DEFAULT_WAIT_TIMEOUT_SECONDS)) || 0,
	);
	const deadline = Date.now() + timeoutSeconds * 1000;
	// Bounded by count as well as by time, in case the clock jumps.
	const maxChecks = Math.ceil(timeoutSeconds / pollSeconds) + 1;

	for (let check = 0; check < maxChecks; check++) {
		try {
			const response = await client.request({ method: 'GET', path: `/image/${pathSegment(id)}`, itemIndex });
			if (isResultReady(response.statusCode, response.body)) return response.body;
		} catch (error) {
			if (!isNotFound(error)) throw asNodeError(this, error, itemIndex);
		}
		const remaining = deadline - Date.now();
		if (remaining <= 0) break;
		await sleep(Math.min(pollSeconds * 1000, remaining));
	}

	throw new NodeOperationError(
		this.getNode(),
		`The moderation ${id} was not ready after ${timeoutSeconds} seconds [item ${itemIndex}]`,
		{
			itemIndex,
			description: `The image is still being processed. Read the result later with Image > Get and Image ID "${id}", raise Wait Timeout, or use Mode "Deferred" with a Content Moderation Trigger.`,
		},
	);
}
