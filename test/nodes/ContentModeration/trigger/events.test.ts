/**
 * The trigger's choice of events (events.ts): results, review decisions, both, any; unknown events are
 * acknowledged.
 */
import { randomUUID } from 'node:crypto';

import { imageResult, queueItem, result, review, useEnvelopeTriggers } from '@test/helpers/callbackBodies';
import { postCallback } from '@test/helpers/webhook-server';

const { trigger } = useEnvelopeTriggers();

describe('the choice of events', () => {
	test.each([
		['both', [1, 1]],
		['results', [1, 0]],
		['reviews', [0, 1]],
		['any', [1, 1]],
	] as const)('%s', async (eventTypes, [results, reviews]) => {
		const server = await trigger({ eventTypes });
		const first = await postCallback(server.webhookUrl, result(imageResult()));
		const second = await postCallback(server.webhookUrl, review(queueItem('accepted')));
		expect([first.status, second.status]).toEqual([200, 200]);
		expect(server.executions.filter((run) => run[0].json.event === 'moderation.completed')).toHaveLength(results);
		expect(server.executions.filter((run) => run[0].json.event === 'queue.review.completed')).toHaveLength(reviews);
		if (results === 0) expect(first.body).toMatchObject({ ignored: 'results are not selected' });
		if (reviews === 0) expect(second.body).toMatchObject({ ignored: 'review decisions are not selected' });
	});

	test('an unknown event is acknowledged 200 and starts nothing, unless Every Event is chosen', async () => {
		const both = await trigger();
		const any = await trigger({ eventTypes: 'any' });
		const body = { event: 'queue.item.deleted', data: { id: randomUUID(), queueId: 'q-main' } };

		const ignored = await postCallback(both.webhookUrl, body);
		const started = await postCallback(any.webhookUrl, body);

		expect(ignored).toEqual({
			status: 200,
			body: { received: true, event: 'queue.item.deleted', id: body.data.id, ignored: 'event "queue.item.deleted" is not one this trigger starts on' },
		});
		expect(both.executions).toHaveLength(0);
		expect(started.status).toBe(200);
		expect(any.executions[0][0].json).toMatchObject({ ...body.data, event: 'queue.item.deleted' });
	});

	test('an unknown event without a data object: 200, nothing starts; a known one: 400', async () => {
		const server = await trigger({ eventTypes: 'any' });
		const unknown = await postCallback(server.webhookUrl, { event: 'account.updated' });
		const known = await postCallback(server.webhookUrl, { event: 'moderation.completed', data: 'abc' });
		expect(unknown).toEqual({
			status: 200,
			body: { received: true, event: 'account.updated', ignored: 'event "account.updated" carries no data object' },
		});
		expect(known.status).toBe(400);
		expect(server.executions).toHaveLength(0);
	});
});
