/** Text > Moderate in versions 1-2: the text goes through a review queue, which is then read until moderated. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { optionsCollection } from '../../descriptions/options';
import { textInputProperty } from '../../descriptions/textInput';
import { getId, getText } from '../../validation/parameters';
import type { VerdictFacts } from '../../verdict/outputs';
import type { NodeRun } from '../operation';
import { MIN_POLL_INTERVAL_SECONDS, readPollTiming, type PollTiming } from '../poll';
import { queueIdProperty, queueMetaOption } from '../queue/queueId';
import { addItem, queueItemOptions } from '../queue/itemBody';
import { waitForModeration } from './waitForModeration';

/** A queue of its own, so texts moderated by n8n do not mix with queues people work on. */
export const DEFAULT_TEXT_QUEUE_ID = 'n8n-text-moderation';

/**
 * The spec shows no processing time. A text (a chat message, a comment) is expected to take about a
 * second: reading every second adds at most one second to a chat answer, and 60 s is long enough for a
 * busy service while a chat user still gets an answer.
 */
export const TEXT_POLL_INTERVAL_SECONDS = 1;
export const TEXT_WAIT_TIMEOUT_SECONDS = 60;
export const TEXT_POLL_DEFAULTS: PollTiming = {
	intervalSeconds: TEXT_POLL_INTERVAL_SECONDS,
	timeoutSeconds: TEXT_WAIT_TIMEOUT_SECONDS,
};

type TextMode = 'wait' | 'submit';

const showWhenWaiting = { show: { mode: ['wait'] } };

const properties: INodeProperties[] = [
	textInputProperty,
	{
		...queueIdProperty,
		default: DEFAULT_TEXT_QUEUE_ID,
		description:
			'The moderation queue the text goes through (at least 3 characters): the service moderates texts only through a queue',
	},
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Wait for Result',
				value: 'wait',
				description:
					'Add the text to the queue, wait until it is moderated and output the text moderation (isSafe, scores, filteredContent) with the queue and item IDs',
			},
			{
				name: 'Submit Only',
				value: 'submit',
				description: 'Add the text to the queue and output only its item ID at once, as Queue > Add Item does',
			},
		],
		default: 'wait',
		description: 'Whether to wait for the verdict or only add the text to the queue',
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: MIN_POLL_INTERVAL_SECONDS, numberPrecision: 1 },
		default: TEXT_POLL_INTERVAL_SECONDS,
		description: 'How long to wait between two reads of the queue item',
		displayOptions: showWhenWaiting,
	},
	{
		displayName: 'Wait Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: TEXT_WAIT_TIMEOUT_SECONDS,
		description:
			'How long to wait for the verdict in total. When it passes, the item fails with the queue item ID so that you can read it later with Queue > Get Item.',
		displayOptions: showWhenWaiting,
	},
	...optionsCollection([queueMetaOption], { versions: 'upTo2' }),
];

const UP_TO_VERSION_2 = { show: { '@version': [{ _cnd: { lte: 2 } }] } };

/** Its fields (Route by Verdict is the operation's, shared by every version). */
export const description: INodeProperties[] = properties.map((property) =>
	property.name === 'options' ? property : updateDisplayOptions(UP_TO_VERSION_2, [property])[0],
);

export const verdict: VerdictFacts = {
	analysisOf: (result) => result,
	// Submit Only answers with an item ID only: refuse before anything is sent.
	refusal(itemIndex) {
		if (this.getNodeParameter('mode', itemIndex, 'wait') !== 'submit') return undefined;
		return new NodeOperationError(
			this.getNode(),
			'Route by Verdict needs a moderation result, but Mode "Submit Only" only returns the queue item ID',
			{ itemIndex, description: 'Set Mode to "Wait for Result", or turn off Route by Verdict.' },
		);
	},
};

export async function execute(this: IExecuteFunctions, itemIndex: number, { client }: NodeRun): Promise<IDataObject> {
	// Every field is checked before the one POST.
	const text = getText(this, itemIndex);
	const queueId = getId(this, itemIndex, 'queueId', 'Queue ID');
	const mode = this.getNodeParameter('mode', itemIndex, 'wait') as TextMode;
	const timing = readPollTiming(this, itemIndex, TEXT_POLL_DEFAULTS);
	const body = { type: 'text' as const, content: text, ...queueItemOptions(this, itemIndex) };

	const added = await addItem(client, queueId, body, itemIndex);
	if (mode === 'submit') return added;

	const itemId = typeof added.id === 'string' ? added.id : '';
	if (itemId === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The service answered the POST of the text to queue "${queueId}" without a queue item ID to wait for [item ${itemIndex}]`,
			{
				itemIndex,
				description: 'The text was submitted once and is not sent again. Use Mode "Submit Only" to see what the service answered.',
			},
		);
	}
	const moderation = await waitForModeration.call(this, itemIndex, client, { queueId, itemId }, timing);
	// The ids beside the text moderation (whose own `id` is the text moderation's).
	return { ...moderation, queueId, itemId };
}
