/**
 * The trigger and the callbacks' completion rule (inbound/completion.ts), through n8n-core's real
 * WebhookContext and real HTTP: a body that is not a complete result is read back and, still incomplete,
 * starts nothing and is not remembered; a read the service fails is not taken for a result; what a caller
 * sends under Accept Callbacks Without a Secret never reaches the item but its id.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { imageResult } from '@test/helpers/callbackBodies';
import { finishedResult, heldSubmission } from '@test/helpers/heldResults';
import { useTriggerCallbacks } from '@test/helpers/triggerCallbacks';
import { postCallback, startTriggerServer, TEST_CALLBACK_SECRET } from '@test/helpers/webhook-server';
import { startScriptedServer } from '@test/helpers/scripted-server';

const callbacks = useTriggerCallbacks();
const { trigger, imageReads } = callbacks;
let mock: MockService;
beforeAll(() => {
	mock = callbacks.mock;
});

test('a signed callback with every result field but isSafe null and status processing starts nothing; the finished one starts the verdict', async () => {
	const server = await trigger({ events: 'all' });
	const { id, release } = await heldSubmission(mock, 'trigger-unfinished');
	try {
		const unfinished = { ...imageResult(id), isSafe: null, status: 'processing' };
		const first = await postCallback(server.webhookUrl, { event: 'moderation.completed', data: unfinished });

		expect(first.status).toBe(503);
		expect(JSON.stringify(first.body)).toContain(`not finished moderation ${id}`);
		// Read back, since the body is no result, and still unfinished at the service.
		expect(imageReads(id).length).toBeGreaterThan(0);
		expect(server.executions).toHaveLength(0);

		release();
		const finished = await finishedResult(mock, id);
		const second = await postCallback(server.webhookUrl, { event: 'moderation.completed', data: finished });
		expect(second).toEqual({ status: 200, body: { received: true, event: 'moderation.completed', id } });
		expect(server.executions).toHaveLength(1);
		const { receivedAt: _at, ...item } = server.executions[0][0].json;
		expect(item).toEqual({ ...finished, event: 'moderation.completed' });
	} finally {
		release();
	}
});

test('a read back that completes a callback takes the verdict fields from the service, never the stale ones of the body', async () => {
	const server = await trigger({ events: 'all' });
	const { id, release } = await heldSubmission(mock, 'trigger-stale');
	release();
	const finished = await finishedResult(mock, id);
	mock.reset();

	const answer = await postCallback(server.webhookUrl, { ...imageResult(id), isSafe: 'yes', status: 'processing', note: 'mine' });

	expect(answer.status).toBe(200);
	expect(imageReads(id)).toHaveLength(1);
	const { receivedAt: _at, ...item } = server.executions[0][0].json;
	// The service's fields win; the callback's own other fields stay.
	expect(item).toEqual({ ...imageResult(id), ...finished, note: 'mine', event: 'moderation.completed' });
	expect(item.status).toBeUndefined();
});

test('Accept Callbacks Without a Secret: nothing the caller sends but the id reaches the item, its warning included', async () => {
	const server = await trigger({ events: 'all', options: { acceptWithoutSecret: true } }, true, '');
	const { id, release } = await heldSubmission(mock, 'trigger-stranger');
	release();
	const finished = await finishedResult(mock, id);
	const warning = { note: 'x'.repeat(5_000), nested: { isSafe: true } };

	const answer = await postCallback(server.webhookUrl, { id, isSafe: true, warning, extra: 'caller-extra-7q', riskScores: { overall: 1 } });

	expect(answer.status).toBe(200);
	const { receivedAt: _at, ...item } = server.executions[0][0].json;
	expect(item).toEqual({ ...finished, event: 'moderation.completed' });
	expect(JSON.stringify(server.executions)).not.toContain('caller-extra-7q');
	expect(JSON.stringify(answer.body)).not.toContain('xxxxx');
});

test('Accept Callbacks Without a Secret, Safe Only: a result the service does not have is answered 404, not ignored', async () => {
	const service = await startScriptedServer(() => ({ status: 404, body: { message: 'not found' } }));
	try {
		const server = await startTriggerServer({
			parameters: { events: 'safe', options: { acceptWithoutSecret: true } },
			credentials: { baseUrl: service.url, accessToken: 'tok-stranger-404', callbackSecret: '' },
			token: '',
		});
		callbacks.servers.push(server);

		const answer = await postCallback(server.webhookUrl, { id: 'job-unknown', isSafe: true });

		expect(answer.status).toBe(404);
		expect(JSON.stringify(answer.body)).toContain('The service has no result job-unknown to read back');
		expect(server.executions).toHaveLength(0);
	} finally {
		await service.stop();
	}
});

describe('a read-back the service fails', () => {
	test.each([500, 502, 503])('answered %i: not a result, answered 503 and nothing remembered; the retry starts it once', async (status) => {
		let failing = true;
		const service = await startScriptedServer((request) =>
			failing
				? { status, body: { message: 'upstream failed' } }
				: { status: 200, body: imageResult(request.path.split('/').pop(), { isSafe: false }) },
		);
		try {
			const server = await startTriggerServer({
				parameters: { events: 'all' },
				credentials: { baseUrl: service.url, accessToken: 'tok-read-500', callbackSecret: TEST_CALLBACK_SECRET },
				token: TEST_CALLBACK_SECRET,
			});
			callbacks.servers.push(server);

			const first = await postCallback(server.webhookUrl, { id: 'job-500' });
			expect(first.status).toBe(503);
			expect(JSON.stringify(first.body)).toContain(`Reading moderation job-500 failed (HTTP ${status})`);
			expect(server.executions).toHaveLength(0);

			failing = false;
			expect((await postCallback(server.webhookUrl, { id: 'job-500' })).status).toBe(200);
			expect((await postCallback(server.webhookUrl, { id: 'job-500' })).body).toMatchObject({ duplicate: true });
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0][0].json).toMatchObject({ id: 'job-500', isSafe: false });
			expect(server.executions[0][0].json.error).toBeUndefined();
		} finally {
			await service.stop();
		}
	});
});
