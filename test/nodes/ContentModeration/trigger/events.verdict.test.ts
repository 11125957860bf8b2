/**
 * The trigger's verdict filter (events.ts `ignoreReason`): which results start a workflow, through the
 * real WebhookContext and the mock's results.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { REVIEW_IMAGE_URL, SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { useTriggerCallbacks } from '@test/helpers/triggerCallbacks';
import { startScriptedServer } from '@test/helpers/scripted-server';
import { postCallback, startTriggerServer, TEST_CALLBACK_SECRET } from '@test/helpers/webhook-server';

const callbacks = useTriggerCallbacks();
const { trigger, moderate } = callbacks;
let mock: MockService;
beforeAll(() => {
	mock = callbacks.mock;
});

describe('events filter', () => {
	// Mock fixtures: SAFE isSafe/no actions; UNSAFE isSafe false + reject; REVIEW isSafe + review.
	const cases: Array<[string, string, boolean]> = [
		['all', SAFE_IMAGE_URL, true],
		['all', UNSAFE_IMAGE_URL, true],
		['all', REVIEW_IMAGE_URL, true],
		['flagged', SAFE_IMAGE_URL, false],
		['flagged', UNSAFE_IMAGE_URL, true],
		['flagged', REVIEW_IMAGE_URL, false],
		['review', SAFE_IMAGE_URL, false],
		['review', UNSAFE_IMAGE_URL, false],
		['review', REVIEW_IMAGE_URL, true],
		['safe', SAFE_IMAGE_URL, true],
		['safe', UNSAFE_IMAGE_URL, false],
		['safe', REVIEW_IMAGE_URL, false],
	];

	test.each(cases)('events %s, image %s: starts %s', async (events, imageUrl, starts) => {
		const server = await trigger({ events });
		const result = await moderate(imageUrl);

		const answer = await postCallback(server.webhookUrl, result);

		expect(answer.status).toBe(200);
		if (starts) {
			expect(answer.body).toEqual({ received: true, event: 'moderation.completed', id: result.id });
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0][0].json.id).toBe(result.id);
		} else {
			const body = answer.body as IDataObject;
			expect(body.received).toBe(true);
			expect(body.id).toBe(result.id);
			expect(typeof body.ignored).toBe('string');
			expect(server.executions).toHaveLength(0);
			expect(server.calls).toHaveLength(1);
			expect(server.calls[0].items).toBeUndefined();
		}
	});

	test('flagged covers a reject suggestion on a result marked safe', async () => {
		const server = await trigger({ events: 'flagged' });
		const result = await moderate(SAFE_IMAGE_URL);
		const rejected = { ...result, suggestedActions: { reject: true, review: false } };

		await postCallback(server.webhookUrl, rejected);

		expect(server.executions).toHaveLength(1);
	});

	test('a result the service refuses to read (403) starts nothing under any filter: 503, so that the sender tries again', async () => {
		const service = await startScriptedServer(() => ({ status: 403, body: { message: 'forbidden' } }));
		const credentials = { baseUrl: service.url, accessToken: 'tok-403-filter', callbackSecret: TEST_CALLBACK_SECRET };
		try {
			for (const events of ['flagged', 'safe', 'all']) {
				const server = await startTriggerServer({ parameters: { events }, credentials, token: TEST_CALLBACK_SECRET });
				callbacks.servers.push(server);
				// The callback's own verdict (safe, unfinished) is not verified: it counts for nothing.
				const data = { id: `job-403-${events}`, isSafe: true, status: 'processing' };
				const answer = await postCallback(server.webhookUrl, { event: 'moderation.completed', data });
				expect(answer.status).toBe(503);
				expect(server.executions).toHaveLength(0);
			}
		} finally {
			await service.stop();
		}
	});

	test('an id alone that cannot be read back (no credential) starts nothing under any filter: 422', async () => {
		for (const events of ['flagged', 'all']) {
			const server = await trigger({ events }, false);
			const answer = await postCallback(server.webhookUrl, { id: `abc-${events}` });
			expect(answer.status).toBe(422);
			expect(JSON.stringify(answer.body)).toContain('no complete result (no boolean isSafe in the callback)');
			expect(server.executions).toHaveLength(0);
		}
	});
});
