/**
 * Text > Moderate. From version 3 the service's direct endpoint (POST /text, moderateDirect.ts);
 * workflows saved at versions 1-2 keep the review-queue path they were built with (moderateQueued.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { verdictProperties } from '../../verdict/description';
import type { VerdictFacts } from '../../verdict/outputs';
import type { NodeRun } from '../operation';
import * as direct from './moderateDirect';
import * as queued from './moderateQueued';

export { DEFAULT_TEXT_QUEUE_ID, TEXT_POLL_DEFAULTS, TEXT_POLL_INTERVAL_SECONDS, TEXT_WAIT_TIMEOUT_SECONDS } from './moderateQueued';

/** The direct endpoint's version onwards. */
export const DIRECT_TEXT_VERSION = 3;

function isDirect(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().typeVersion >= DIRECT_TEXT_VERSION;
}

export const toolDescription =
	'Moderate a text (a chat message, comment or review) and get the verdict. Takes the text. Returns isSafe (false: do not use the text), suggestedActions (reject, review), the flagged nsfwCategories with their severity, riskScores, sentiment, a summary and filteredContent: the text with profanity masked by *, to use instead of the original';

const RETURNS =
	'Returns isSafe (false: do not use it), suggestedActions (reject, review), nsfwCategories (flagged categories with severity), riskScores, sentiment, summary and filteredContent: the text with profanity masked by *, to use instead of the original.';

export const option: INodePropertyOptions = {
	name: 'Moderate',
	value: 'moderate',
	action: 'Moderate a text',
	description: `Moderate a text (e.g. a chat message or comment) and get the verdict at once, or deferred. Takes the text. ${RETURNS}`,
};

/** The option of versions 1-2, which moderate through a review queue. */
export const queuedOption: INodePropertyOptions = {
	...option,
	name: 'Moderate (via Queue)',
	description: `Moderate a text (e.g. a chat message or comment) through a moderation queue and wait for the verdict. Takes the text. ${RETURNS}`,
};

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['text'], operation: ['moderate'] } },
	[...direct.description, ...queued.description, ...verdictProperties] as INodeProperties[],
);

export const verdict: VerdictFacts = {
	analysisOf: (result) => result,
	refusal(itemIndex) {
		return (isDirect(this) ? direct.verdict : queued.verdict).refusal?.call(this, itemIndex);
	},
};

export async function execute(this: IExecuteFunctions, itemIndex: number, run: NodeRun): Promise<IDataObject> {
	return await (isDirect(this) ? direct.execute : queued.execute).call(this, itemIndex, run);
}

export async function settle(
	this: IExecuteFunctions,
	results: INodeExecutionData[],
	routing: boolean,
): Promise<INodeExecutionData[][] | undefined> {
	return isDirect(this) ? await direct.settle.call(this, results, routing) : undefined;
}
