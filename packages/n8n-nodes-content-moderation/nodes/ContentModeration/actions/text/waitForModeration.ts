/**
 * Text > Moderate's wait: reads the queue item every Poll Interval until its `moderation` is there (the
 * only sign of readiness: a processed item's status is not shown in the spec), then, when that holds
 * only an id, the text moderation with GET /text/{id}.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../helpers/errorItems';
import { isObject } from '../../helpers/json';
import type { ApiClient } from '../../transport/client';
import { hasAnalysis } from '../../verdict/rules';
import { isNotFound, isResultReady, pollUntil, type PollTiming } from '../poll';
import { getQueueItem, getText } from '../../transport/endpoints';

export interface QueuedText {
	queueId: string;
	itemId: string;
}

/** The text moderation of a queued text, or a timeout error naming the item so it can be read later. */
export async function waitForModeration(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ApiClient,
	{ queueId, itemId }: QueuedText,
	timing: PollTiming,
): Promise<IDataObject> {
	// Once the item names its text moderation, only that is read.
	let textId: string | undefined;

	const readItem = async (): Promise<IDataObject | undefined> => {
		const moderation = (await getQueueItem(client, queueId, itemId, itemIndex)).body.moderation;
		if (!isObject(moderation)) return undefined;
		if (hasAnalysis(moderation)) return moderation;
		if (typeof moderation.id !== 'string' || moderation.id === '') {
			throw new NodeOperationError(
				this.getNode(),
				`The queue item "${itemId}" has a moderation with neither a verdict (isSafe) nor an ID [item ${itemIndex}]`,
				{ itemIndex, description: `Read it with Queue > Get Item (Queue ID "${queueId}", Item ID "${itemId}") to see what the service returned.` },
			);
		}
		textId = moderation.id;
		return await readText();
	};
	const readText = async (): Promise<IDataObject | undefined> => {
		const response = await getText(client, textId as string, itemIndex);
		return isResultReady(response.statusCode, response.body) ? response.body : undefined;
	};

	// What the last read found missing (404), named by the timeout error.
	let notFound: string | undefined;
	const moderation = await pollUntil(
		timing,
		async () => {
			try {
				const found = textId === undefined ? await readItem() : await readText();
				notFound = undefined;
				return found;
			} catch (error) {
				// The ids came from the service a moment ago: a 404 means "not stored yet".
				if (!isNotFound(error)) throw asNodeError(this, error, itemIndex);
				notFound = textId === undefined ? 'the queue item' : `the text moderation "${textId}"`;
				return undefined;
			}
		},
		true,
	);
	if (moderation !== undefined) return moderation;

	if (notFound !== undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`The service answered 404 (not found) for ${notFound} until the wait timeout (${timing.timeoutSeconds} seconds): queue item "${itemId}" in queue "${queueId}" [item ${itemIndex}]`,
			{
				itemIndex,
				description: `The text was submitted once and is not sent again. Check the item with Queue > Get Item (Queue ID "${queueId}", Item ID "${itemId}"); if it is gone, run the item again to submit the text anew.`,
			},
		);
	}
	throw new NodeOperationError(
		this.getNode(),
		`The text was not moderated within ${timing.timeoutSeconds} seconds: queue item "${itemId}" in queue "${queueId}" [item ${itemIndex}]`,
		{
			itemIndex,
			description: `The service still processes it. Read it later with Queue > Get Item (Queue ID "${queueId}", Item ID "${itemId}"), raise Wait Timeout, or use Mode "Submit Only".`,
		},
	);
}
