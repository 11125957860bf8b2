/**
 * The trigger (callback.ts) through n8n-core's real WebhookContext and real HTTP: the service's
 * `{event, data}` callbacks (results and review decisions) and flat bodies.
 */
import type { IDataObject } from 'n8n-workflow';

import { imageResult, queueItem, result, review, textResult, useEnvelopeTriggers } from '@test/helpers/callbackBodies';
import { postCallback } from '@test/helpers/webhook-server';

const { trigger } = useEnvelopeTriggers();

describe('the trigger reads {event, data}', () => {
	test('an image result: its fields at the top of the item, event kept, no read', async () => {
		const server = await trigger();
		const data = imageResult();

		const answer = await postCallback(server.webhookUrl, result(data));

		expect(answer).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: data.id } });
		expect(server.executions).toHaveLength(1);
		const { receivedAt, ...item } = server.executions[0][0].json;
		expect(item).toEqual({ ...data, event: 'moderation.completed' });
		expect(typeof receivedAt).toBe('string');
	});

	test('a text result starts the workflow with its text fields', async () => {
		const server = await trigger();
		const data = textResult();
		await postCallback(server.webhookUrl, result(data));
		expect(server.executions[0][0].json).toMatchObject({ ...data, event: 'moderation.completed' });
	});

	test('a review decision starts the workflow with status, accepted, content, moderation and metadata', async () => {
		const server = await trigger({ events: 'safe' });
		const data = queueItem('rejected');

		const answer = await postCallback(server.webhookUrl, review(data));

		expect(answer).toEqual({ status: 200, body: { received: true, event: 'queue.review.completed', id: data.id } });
		// The verdict filter (Safe Only) judges results; a person's decision always passes.
		expect(server.executions).toHaveLength(1);
		expect(server.executions[0][0].json).toMatchObject({
			event: 'queue.review.completed',
			id: data.id,
			status: 'rejected',
			accepted: false,
			content: 'you idiot',
			moderation: data.moderation as IDataObject,
			meta: { commentId: 'c-9' },
		});
	});

	test('a flat body (older senders) is a result', async () => {
		const server = await trigger();
		const data = imageResult();
		const answer = await postCallback(server.webhookUrl, data);
		expect(answer.body).toEqual({ received: true, event: 'moderation.completed', id: data.id });
		expect(server.executions[0][0].json).toMatchObject({ ...data, event: 'moderation.completed' });
	});

	test('the verdict filter still holds results back', async () => {
		const server = await trigger({ events: 'flagged' });
		const answer = await postCallback(server.webhookUrl, result(imageResult()));
		expect(answer.body).toMatchObject({ received: true, ignored: 'not flagged' });
		expect(server.executions).toHaveLength(0);
	});
});
