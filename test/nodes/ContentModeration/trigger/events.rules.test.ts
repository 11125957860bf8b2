/**
 * events.ts on its own: the verdict filter (ignoreReason), the choice of events (eventIgnoreReason) and the two
 * option lists the node's parameters offer.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	EVENT_OPTIONS,
	EVENT_SELECTION_OPTIONS,
	eventIgnoreReason,
	ignoreReason,
	type EventFilter,
	type EventSelection,
} from '@package/nodes/ContentModeration/trigger/events';

const complete = (isSafe: boolean, reject: boolean, review: boolean): IDataObject => ({
	id: 'r-1',
	isSafe,
	suggestedActions: { reject, review },
	riskScores: { overall: 10 },
	nsfwCategories: [],
});

const safe = complete(true, false, false);
const unsafe = complete(false, false, false);
const rejected = complete(true, true, false);
const review = complete(true, false, true);
const flaggedAndReview = complete(false, false, true);
const unfinished: IDataObject = { id: 'r-2', status: 'processing' };

describe('ignoreReason: the verdict filter', () => {
	test.each<[string, IDataObject]>([
		['safe', safe],
		['unsafe', unsafe],
		['review', review],
		['unfinished', unfinished],
	])('All lets every result through (%s)', (_, result) => {
		expect(ignoreReason('all', result)).toBeUndefined();
	});

	test.each<[EventFilter, IDataObject, string | undefined]>([
		['flagged', safe, 'not flagged'],
		['flagged', review, 'not flagged'],
		['flagged', unsafe, undefined],
		['flagged', rejected, undefined],
		['review', safe, 'not marked for review'],
		['review', unsafe, 'not marked for review'],
		['review', review, undefined],
		['review', flaggedAndReview, undefined],
		['safe', safe, undefined],
		['safe', unsafe, 'flagged'],
		['safe', rejected, 'flagged'],
		['safe', review, 'marked for review'],
		['safe', flaggedAndReview, 'flagged'],
	])('%s on %j: %s', (events, result, reason) => {
		expect(ignoreReason(events, result)).toBe(reason);
	});

	test('a result that is not complete passes Flagged Only and Review Only, Safe Only holds it back', () => {
		expect(ignoreReason('flagged', unfinished)).toBeUndefined();
		expect(ignoreReason('review', unfinished)).toBeUndefined();
		expect(ignoreReason('safe', unfinished)).toBe('no complete result, so it cannot count as safe');
		// Unsafe by its fields but incomplete (no nsfwCategories): still not judged.
		const { nsfwCategories: _, ...partial } = unsafe;
		expect(ignoreReason('flagged', partial)).toBeUndefined();
		expect(ignoreReason('safe', partial)).toBe('no complete result, so it cannot count as safe');
	});

	test('an unknown filter value ignores nothing', () => {
		expect(ignoreReason('other' as EventFilter, safe)).toBeUndefined();
		expect(ignoreReason('other' as EventFilter, unsafe)).toBeUndefined();
	});
});

describe('eventIgnoreReason: the choice of events', () => {
	const RESULT = 'moderation.completed';
	const REVIEW = 'queue.review.completed';

	test.each<[EventSelection, string, string | undefined]>([
		['both', RESULT, undefined],
		['both', REVIEW, undefined],
		['results', RESULT, undefined],
		['results', REVIEW, 'review decisions are not selected'],
		['reviews', RESULT, 'results are not selected'],
		['reviews', REVIEW, undefined],
		['any', RESULT, undefined],
		['any', REVIEW, undefined],
		['any', 'queue.item.deleted', undefined],
	])('%s, %s: %s', (selection, event, reason) => {
		expect(eventIgnoreReason(selection, event)).toBe(reason);
	});

	test.each<EventSelection>(['both', 'results', 'reviews'])('an unknown event under %s is named', (selection) => {
		expect(eventIgnoreReason(selection, 'queue.item.deleted')).toBe(
			'event "queue.item.deleted" is not one this trigger starts on',
		);
	});
});

describe('the option lists', () => {
	test('the verdict filter offers All, Flagged Only, Review Only and Safe Only', () => {
		expect(EVENT_OPTIONS).toEqual([
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
		]);
	});

	test('the choice of events offers both, results, reviews and any', () => {
		expect(EVENT_SELECTION_OPTIONS).toEqual([
			{
				name: 'Results and Review Decisions',
				value: 'both',
				description:
					'Completed moderations (moderation.completed) and decisions of a review queue (queue.review.completed)',
			},
			{
				name: 'Results Only',
				value: 'results',
				description: 'Completed moderations (moderation.completed)',
			},
			{
				name: 'Review Decisions Only',
				value: 'reviews',
				description: 'A person accepted or rejected a review queue item (queue.review.completed)',
			},
			{
				name: 'Every Event',
				value: 'any',
				description: 'Also events this node does not know, passed on as they came',
			},
		]);
	});
});
