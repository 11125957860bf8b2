/**
 * The trigger's reading of a body (webhook.ts with inbound/requestBody.ts and envelope.ts): bad bodies get
 * 400 JSON and start nothing, JSON under any content type is read, callbacks without an id still start a
 * workflow, and reads go through the service's limiter.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { SAFE_IMAGE_URL, UNSAFE_IMAGE_URL } from '@dev/mock/fixtures';
import { limiters, serviceKey } from '@package/nodes/ContentModeration/limiter/registry';
import { useTriggerCallbacks } from '@test/helpers/triggerCallbacks';
import { imageResult } from '@test/helpers/callbackBodies';
import { postCallback } from '@test/helpers/webhook-server';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

const callbacks = useTriggerCallbacks();
const { trigger, moderate, imageReads } = callbacks;
let mock: MockService;
beforeAll(() => {
	mock = callbacks.mock;
});

describe('body: bad calls get 400 JSON and start nothing, JSON under any content type is read', () => {
	const cases: Array<[string, string, string | null, RegExp]> = [
		['non-JSON text', 'hello there', 'text/plain', /not JSON/],
		['non-JSON bytes without a content type', 'id=abc', null, /not JSON/],
		['a form body', 'id=abc', 'application/x-www-form-urlencoded', /not JSON/],
		['malformed JSON sent as octet-stream', '{"id": "abc"', 'application/octet-stream', /not JSON/],
		['an empty JSON body', '', 'application/json', /Empty body/],
		['an empty body without a content type', '', null, /Empty body/],
		['a JSON array', '[{"id":"abc"}]', 'application/json', /JSON object/],
		['a JSON string', '"abc"', 'text/plain', /JSON object/],
		['an object with neither an id nor a result field', '{"status":"done"}', 'application/json', /neither an id nor any moderation result field/],
		['an empty id and no result field', '{"id":""}', 'application/json', /neither an id nor any moderation result field/],
		['an empty object', '{}', 'application/json', /neither an id nor any moderation result field/],
	];

	test.each(cases)('%s', async (_name, body, contentType, message) => {
		const server = await trigger({ events: 'all' });

		const answer = await postCallback(server.webhookUrl, body, { contentType });

		expect(answer.status).toBe(400);
		const error = (answer.body as { error: { status: number; message: string } }).error;
		expect(error.status).toBe(400);
		expect(error.message).toMatch(message);
		expect(server.executions).toHaveLength(0);
		expect(mock.requests).toHaveLength(0);
	});

	// n8n reads the bytes of the last three only for a start node at version 1: the trigger reads them itself.
	test.each(['text/plain', 'application/x-www-form-urlencoded', 'application/vnd.moderation+json', 'application/octet-stream', null])(
		'a JSON body sent as %s is accepted',
		async (contentType) => {
			const server = await trigger({ events: 'all' });
			const result = await moderate(SAFE_IMAGE_URL);

			const answer = await postCallback(server.webhookUrl, JSON.stringify(result), { contentType });

			expect(answer).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: result.id } });
			expect(server.executions).toHaveLength(1);
			const { receivedAt, ...rest } = server.executions[0][0].json;
			expect(rest).toEqual({ ...result, event: 'moderation.completed' });
			expect(receivedAt).toBeDefined();
		},
	);
});

describe('callbacks without an id (the spec\'s image result has none) start a workflow', () => {
	test('a spec-shaped result without id: id null, a warning, no read, one execution', async () => {
		const server = await trigger({ events: 'all' });
		const { id: _id, ...specShaped } = await moderate(UNSAFE_IMAGE_URL);
		mock.reset();

		const answer = await postCallback(server.webhookUrl, specShaped);

		expect(answer).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: null, warning: 'No id: a delivery of this completion again starts the workflow again' } });
		expect(server.executions).toHaveLength(1);
		const { receivedAt, warning, ...rest } = server.executions[0][0].json;
		expect(rest).toEqual({ ...specShaped, id: null, event: 'moderation.completed' });
		expect(warning).toBe(
			'The callback carries no id, so it cannot be matched to its submission. A delivery of it again starts the workflow again. Its fields are as the service sent them.',
		);
		expect(typeof receivedAt).toBe('string');
		expect(mock.requests).toHaveLength(0);
	});

	test('a partial result without id starts nothing: 422 (no retry can read it back), under every filter', async () => {
		const all = await trigger({ events: 'all' });
		const safe = await trigger({ events: 'safe' });

		const answer = await postCallback(all.webhookUrl, { isSafe: true, meta: { orderId: 'A-17' } });
		const held = await postCallback(safe.webhookUrl, { meta: { orderId: 'A-17' } });

		expect(answer.status).toBe(422);
		expect(JSON.stringify(answer.body)).toContain('no complete result (no suggestedActions.reject and .review in the callback) and no id to read it by');
		expect(JSON.stringify(answer.body)).not.toContain('try this callback again');
		expect(held.status).toBe(422);
		expect(all.executions).toHaveLength(0);
		expect(safe.executions).toHaveLength(0);
		expect(mock.requests).toHaveLength(0);
	});

	test('an id-less image result (as the API reference sends it) short of one field: 422 with what it lacks, every time, nothing read', async () => {
		const server = await trigger({ events: 'all' });
		const { id: _id, ...noId } = imageResult();
		const short: Array<[IDataObject, string]> = [
			[{ ...noId, nsfwCategories: [{ category: 'violence_gore', severity: null }] }, 'no nsfwCategories with category and severity'],
			[{ ...noId, suggestedActions: { reject: false } }, 'no suggestedActions.reject and .review'],
		];
		for (const [data, lacks] of short) {
			for (let attempt = 0; attempt < 3; attempt++) {
				const answer = await postCallback(server.webhookUrl, { event: 'moderation.completed', data });
				expect(answer.status).toBe(422);
				expect(JSON.stringify(answer.body)).toContain(`(${lacks} in the callback) and no id to read it by`);
			}
		}
		expect(server.executions).toHaveLength(0);
		expect(mock.requests).toHaveLength(0);
	});

	test('an unusable id (null, empty, an object) is reported as such', async () => {
		const server = await trigger({ events: 'all' }, false);
		const result = imageResult(undefined, { isSafe: false });
		await postCallback(server.webhookUrl, { ...result, id: null });
		await postCallback(server.webhookUrl, { ...result, id: '' });
		await postCallback(server.webhookUrl, { ...result, id: { v: 1 } });
		expect(server.executions.map((run) => [run[0].json.id, run[0].json.warning])).toEqual([
			[null, expect.stringMatching(/^The callback's id is not usable \(null\)/)],
			[null, expect.stringMatching(/^The callback's id is not usable \(it is empty\)/)],
			[null, expect.stringMatching(/^The callback's id is not usable \(a object\)/)],
		]);
	});

	test('a numeric id is taken as its text', async () => {
		const server = await trigger({ events: 'all' }, false);
		const answer = await postCallback(server.webhookUrl, imageResult(12345 as unknown as string));
		expect(answer).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id: '12345' } });
		expect(server.executions[0][0].json.warning).toBeUndefined();
	});
});

describe("the trigger's reads share the process's limiter of the service", () => {
	test('Fetch Full Result reads through the limiter the action node uses for the same base URL and token', async () => {
		const server = await trigger({ events: 'all' });
		const result = await moderate(SAFE_IMAGE_URL);
		mock.reset();
		resetProcessState();
		const key = serviceKey(mock.url, mock.token);

		await postCallback(server.webhookUrl, { id: result.id });

		expect(imageReads(result.id)).toHaveLength(1);
		// The read made the service's limiter in the one registry, under the action node's key, and nothing else.
		expect(limiters.size).toBe(1);
		const limiter = limiters.limiterFor(key);
		expect(limiters.size).toBe(1);
		expect(limiter.snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
	});
});
