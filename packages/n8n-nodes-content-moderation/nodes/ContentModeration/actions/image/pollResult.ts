/** "Deferred and Wait": reads GET /image/{id} every Poll Interval until the result is there or Wait Timeout passes. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { systemClock, type Clock } from '../../helpers/clock';
import { asNodeError, operationError } from '../../helpers/errorItems';
import type { ApiClient } from '../../transport/client';
import { getImage } from '../../transport/endpoints';
import { addNote } from '../../transport/errors';
import { isCompletion } from '../../inbound/completion';
import { isNotFound, withId } from '../../inbound/readBack';

// The spec gives no processing times: these suit a few-second moderation without hammering the service.
const DEFAULT_POLL_INTERVAL_SECONDS = 2;
const DEFAULT_WAIT_TIMEOUT_SECONDS = 60;
const MIN_POLL_INTERVAL_SECONDS = 0.1;

export const pollProperties: INodeProperties[] = [
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: MIN_POLL_INTERVAL_SECONDS, numberPrecision: 1 },
		default: DEFAULT_POLL_INTERVAL_SECONDS,
		description: 'How long to wait between two checks of the result',
		displayOptions: { show: { mode: ['deferredWait'] } },
	},
	{
		displayName: 'Wait Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_WAIT_TIMEOUT_SECONDS,
		description:
			'How long to wait for the result in total. When it passes, the item fails with the moderation ID so that you can read the result later with Image > Get.',
		displayOptions: { show: { mode: ['deferredWait'] } },
	},
];

export type PollTiming = { intervalSeconds: number; timeoutSeconds: number };

/** Calls `check` every interval until it returns a value; undefined once the timeout has passed. */
export async function pollUntil<T>(
	timing: PollTiming,
	check: () => Promise<T | undefined>,
	clock: Clock = systemClock,
): Promise<T | undefined> {
	const intervalMs = timing.intervalSeconds * 1000;
	const deadline = clock.now() + timing.timeoutSeconds * 1000;
	// Bounded by count as well as by time, in case the clock jumps.
	const maxChecks = Math.ceil(timing.timeoutSeconds / timing.intervalSeconds) + 1;

	for (let attempt = 0; attempt < maxChecks; attempt++) {
		const value = await check();
		if (value !== undefined) return value;
		const remaining = deadline - clock.now();
		if (remaining <= 0) break;
		await clock.sleep(Math.min(intervalMs, remaining));
	}
	return undefined;
}

export async function pollResult(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ApiClient,
	id: string,
): Promise<IDataObject> {
	const interval = Number(this.getNodeParameter('pollInterval', itemIndex, DEFAULT_POLL_INTERVAL_SECONDS));
	const timeout = Number(this.getNodeParameter('waitTimeout', itemIndex, DEFAULT_WAIT_TIMEOUT_SECONDS));
	const timing = {
		intervalSeconds: Math.max(MIN_POLL_INTERVAL_SECONDS, interval || DEFAULT_POLL_INTERVAL_SECONDS),
		timeoutSeconds: Math.max(0, timeout || 0),
	};
	const result = await pollUntil(timing, async () => {
		try {
			const response = await getImage(client, id, itemIndex);
			return isCompletion(response.statusCode, response.body) ? withId(id, response.body) : undefined;
		} catch (error) {
			if (isNotFound(error)) return undefined;
			// The image was accepted: running the item again would send it again.
			const note = `The service accepted the image as moderation "${id}": read its result with Image > Get and that Image ID rather than running this item again, which sends the image again.`;
			throw addNote(asNodeError(this, error, itemIndex), note);
		}
	});
	if (result !== undefined) return result;

	const message = `The moderation ${id} was not ready after ${timing.timeoutSeconds} seconds [item ${itemIndex}]`;
	const description = `The image is still being processed. Read the result later with Image > Get and Image ID "${id}", raise Wait Timeout, or use Mode "Deferred" with a Content Moderation Trigger.`;
	throw operationError(this.getNode(), itemIndex, message, description);
}
