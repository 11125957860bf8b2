import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { RESULT_EVENT, REVIEW_EVENT } from '../inbound/envelope';
import { flaggedReasons, isCompleteResult, needsReview } from '../verdict/rules';

export type EventFilter = 'all' | 'flagged' | 'review' | 'safe';

export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'All', value: 'all', description: 'Every completed moderation' },
	{
		name: 'Flagged Only',
		value: 'flagged',
		description: 'Results that are not safe or whose suggested action is reject',
	},
	{ name: 'Review Only', value: 'review', description: 'Results whose suggested action is review' },
	{ name: 'Safe Only', value: 'safe', description: 'Results that are neither flagged nor marked for review' },
];

/**
 * Why a result is filtered out, or undefined when it starts the workflow, by Route by Verdict's rule code
 * (default rules). A result not complete (inbound/completion.ts) cannot be judged: it passes "Flagged Only" and "Review
 * Only" so no flagged content is dropped silently; "Safe Only" holds it back: unknown is never safe.
 */
export function ignoreReason(events: EventFilter, result: IDataObject): string | undefined {
	if (events === 'all') return undefined;
	if (!isCompleteResult(result))
		return events === 'safe' ? 'no complete result, so it cannot count as safe' : undefined;
	const flagged = flaggedReasons(result).length > 0;
	const review = needsReview(result);
	if (events === 'flagged' && !flagged) return 'not flagged';
	if (events === 'review' && !review) return 'not marked for review';
	if (events === 'safe' && (flagged || review)) return flagged ? 'flagged' : 'marked for review';
	return undefined;
}

/** Which events start the workflow (the verdict filter above applies to results only). */
export type EventSelection = 'both' | 'results' | 'reviews' | 'any';

export const EVENT_SELECTION_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Results and Review Decisions',
		value: 'both',
		description:
			'Completed moderations (moderation.completed) and decisions of a review queue (queue.review.completed)',
	},
	{ name: 'Results Only', value: 'results', description: 'Completed moderations (moderation.completed)' },
	{
		name: 'Review Decisions Only',
		value: 'reviews',
		description: 'A person accepted or rejected a review queue item (queue.review.completed)',
	},
	{ name: 'Every Event', value: 'any', description: 'Also events this node does not know, passed on as they came' },
];

/** Why an event does not start the workflow under `selection`, or undefined when it does. */
export function eventIgnoreReason(selection: EventSelection, event: string): string | undefined {
	if (selection === 'any') return undefined;
	if (event === RESULT_EVENT) return selection === 'reviews' ? 'results are not selected' : undefined;
	if (event === REVIEW_EVENT) return selection === 'results' ? 'review decisions are not selected' : undefined;
	return `event "${event}" is not one this trigger starts on`;
}
