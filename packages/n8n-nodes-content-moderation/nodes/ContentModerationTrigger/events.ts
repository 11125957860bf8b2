import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { flaggedReasons, hasAnalysis, needsReview } from '../ContentModeration/verdict/rules';

export type EventFilter = 'all' | 'flagged' | 'review' | 'safe';

export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'All', value: 'all', description: 'Every completed moderation' },
	{
		name: 'Flagged Only',
		value: 'flagged',
		description: 'Results that are not safe or whose suggested action is reject',
	},
	{
		name: 'Review Only',
		value: 'review',
		description: 'Results whose suggested action is review',
	},
	{
		name: 'Safe Only',
		value: 'safe',
		description: 'Results that are neither flagged nor marked for review',
	},
];

/**
 * Why a result is filtered out, or undefined when it starts the workflow. Uses the same rule code
 * as the action node's Route by Verdict (default rules, no thresholds).
 *
 * A result without an analysis (only an id that could not be read) cannot be judged: it passes
 * "Flagged Only" and "Review Only" so no flagged content is dropped silently, and is held back by
 * "Safe Only" because unknown content must never count as safe.
 */
export function ignoreReason(events: EventFilter, result: IDataObject): string | undefined {
	if (events === 'all') return undefined;
	if (!hasAnalysis(result)) {
		return events === 'safe' ? 'no analysis in the callback, so it cannot count as safe' : undefined;
	}
	const flagged = flaggedReasons(result).length > 0;
	const review = needsReview(result);
	if (events === 'flagged' && !flagged) return 'not flagged';
	if (events === 'review' && !review) return 'not marked for review';
	if (events === 'safe' && (flagged || review)) return flagged ? 'flagged' : 'marked for review';
	return undefined;
}
