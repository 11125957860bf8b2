/**
 * One workflow per completion (callback.ts with callbacks/deliveries.ts): a repeated delivery of one
 * completion is acknowledged with `duplicate: true` and starts nothing.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { deliveries } from '@package/nodes/ContentModeration/inbound/deliveries';
import { imageResult, queueItem, result, review, SECRET, textResult, useEnvelopeTriggers } from '@test/helpers/callbackBodies';
import { postCallback } from '@test/helpers/webhook-server';

const { trigger } = useEnvelopeTriggers();

describe('one workflow per completion', () => {
	test('the same callback twice: one execution, the second answer says duplicate', async () => {
		const server = await trigger();
		const body = result(imageResult());

		const first = await postCallback(server.webhookUrl, body);
		const second = await postCallback(server.webhookUrl, body);

		expect(first.body).toEqual({ received: true, event: 'moderation.completed', id: body.data.id });
		expect(second).toEqual({
			status: 200,
			body: { received: true, event: 'moderation.completed', id: body.data.id, duplicate: true },
		});
		expect(server.executions).toHaveLength(1);
	});

	test('a flat body and its envelope are the same completion', async () => {
		const server = await trigger();
		const data = imageResult();
		await postCallback(server.webhookUrl, data);
		const again = await postCallback(server.webhookUrl, result(data));
		expect(again.body).toMatchObject({ duplicate: true });
		expect(server.executions).toHaveLength(1);
	});

	test('one id, different events (a result, then a review decision): both start', async () => {
		const server = await trigger();
		const id = randomUUID();
		await postCallback(server.webhookUrl, result(textResult(id)));
		await postCallback(server.webhookUrl, review(queueItem('accepted', id)));
		expect(server.executions.map((run) => run[0].json.event)).toEqual(['moderation.completed', 'queue.review.completed']);
	});

	test('two decisions for one item (accepted, then rejected): both start; each repeated: nothing more', async () => {
		const server = await trigger();
		const id = randomUUID();
		const answers = [];
		for (const decision of ['accepted', 'rejected', 'accepted', 'rejected'] as const) {
			answers.push((await postCallback(server.webhookUrl, review(queueItem(decision, id)))).body as IDataObject);
		}
		expect(server.executions.map((run) => run[0].json.status)).toEqual(['accepted', 'rejected']);
		expect(answers.map((answer) => answer.duplicate === true)).toEqual([false, false, true, true]);
	});

	test('two triggers receiving the same completion each start their workflow', async () => {
		const one = await trigger();
		const body = result(imageResult());
		await postCallback(one.webhookUrl, body);
		// Another trigger node (another webhook id) in the same process.
		const other = await trigger({}, { webhookId: randomUUID() });
		const answer = await postCallback(other.webhookUrl, body);
		expect(answer.body).not.toHaveProperty('duplicate');
		expect([one.executions.length, other.executions.length]).toEqual([1, 1]);
	});

	test('one result id is one completion, whatever kind its data shows (a slim delivery, then the full one)', async () => {
		const server = await trigger();
		const id = randomUUID();
		await postCallback(server.webhookUrl, result(textResult(id)));
		const slim = await postCallback(server.webhookUrl, result({ id, isSafe: false }));
		expect(slim.body).toHaveProperty('duplicate', true);
		expect(server.executions).toHaveLength(1);
	});

	test('review decisions whose status is an object are told apart', async () => {
		const server = await trigger();
		const id = randomUUID();
		const decision = (code: string) => review({ ...queueItem('accepted', id), status: { code } });
		const answers = [];
		for (const code of ['accepted', 'rejected', 'rejected']) {
			answers.push((await postCallback(server.webhookUrl, decision(code))).body as IDataObject);
		}
		expect(answers.map((answer) => answer.duplicate === true)).toEqual([false, false, true]);
	});

	test('a completion without an id cannot be recognised: it starts every time, with a warning', async () => {
		const server = await trigger();
		const { id: _id, ...withoutId } = imageResult();

		const answers = [
			await postCallback(server.webhookUrl, result(withoutId)),
			await postCallback(server.webhookUrl, result(withoutId)),
		];

		expect(server.executions).toHaveLength(2);
		for (const answer of answers) {
			expect(answer.body).toEqual({
				received: true,
				event: 'moderation.completed',
				id: null,
				warning: 'No id: a delivery of this completion again starts the workflow again',
			});
		}
		expect(server.executions[0][0].json.warning).toBe(
			'The callback carries no id, so it cannot be matched to its submission. A delivery of it again starts the workflow again. Its fields are as the service sent them.',
		);
	});

	test('a first delivery refused (wrong secret) does not hold back a good one', async () => {
		const server = await trigger({ events: 'all' }, { secret: SECRET });
		const body = result(imageResult());

		const refused = await postCallback(server.webhookUrl, body, { query: { token: 'wrong' } });
		const good = await postCallback(server.webhookUrl, body, { query: { token: SECRET } });
		const again = await postCallback(server.webhookUrl, body, { query: { token: SECRET } });
		// A duplicate is told only to a caller with the secret.
		const stranger = await postCallback(server.webhookUrl, body);

		expect([refused.status, good.status, again.status, stranger.status]).toEqual([401, 200, 200, 401]);
		expect(again.body).toMatchObject({ duplicate: true });
		expect(JSON.stringify(stranger.body)).not.toContain('duplicate');
		expect(server.executions).toHaveLength(1);
	});

	test('a delivery the verdict filter leaves out holds nothing: its next delivery is not held back, and it is counted nowhere', async () => {
		const server = await trigger({ events: 'flagged' });
		const body = result(imageResult());
		const answers = [];
		for (let i = 0; i < 2; i++) answers.push(await postCallback(server.webhookUrl, body));
		// A claim the first delivery kept would make the second wait for it, then answer 503.
		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		expect(answers.map((answer) => (answer.body as IDataObject).ignored)).toEqual([expect.any(String), expect.any(String)]);
		expect(deliveries.inFlight).toBe(0);
		expect(deliveries.size).toBe(0);
		expect(server.executions).toHaveLength(0);
	});

	test('a malformed first delivery (400) does not hold back a good one', async () => {
		const server = await trigger();
		const id = randomUUID();
		const bad = await postCallback(server.webhookUrl, { event: 'moderation.completed', data: { id: '' } });
		const good = await postCallback(server.webhookUrl, result(imageResult(id)));
		expect([bad.status, good.status]).toEqual([400, 200]);
		expect(server.executions).toHaveLength(1);
	});

	describe('deliveries arriving while the first is still handled (a slow full-result read)', () => {
		let service: Server;
		let baseUrl: string;
		let reads = 0;
		let failNext = 0;

		beforeAll(async () => {
			service = createServer((req, res) => {
				reads++;
				const id = (req.url ?? '').split('/').pop() ?? '';
				setTimeout(() => {
					if (failNext > 0) {
						failNext--;
						res.writeHead(403, { 'content-type': 'application/json' });
						res.end(JSON.stringify({ error: 'forbidden' }));
						return;
					}
					res.writeHead(200, { 'content-type': 'application/json' });
					res.end(JSON.stringify(imageResult(id)));
				}, 300);
			});
			await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
			baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
		});
		afterAll(async () => {
			service.closeAllConnections();
			await new Promise<void>((resolve) => service.close(() => resolve()));
		});
		beforeEach(() => {
			reads = 0;
			failNext = 0;
		});

		test('ten at once: one execution, one read, nine duplicates', async () => {
			const server = await trigger({}, { baseUrl });
			const body = result({ id: randomUUID() });

			const answers = await Promise.all(Array.from({ length: 10 }, async () => await postCallback(server.webhookUrl, body)));

			expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
			expect(answers.filter((answer) => (answer.body as IDataObject).duplicate === true)).toHaveLength(9);
			expect(server.executions).toHaveLength(1);
			expect(reads).toBe(1);
		});

		test('refused and good deliveries at once: the good one starts, once', async () => {
			const server = await trigger({}, { baseUrl, secret: SECRET });
			const body = result({ id: randomUUID() });
			const tokens = ['wrong', SECRET, 'wrong', SECRET, 'wrong', SECRET];

			const answers = await Promise.all(
				tokens.map(async (token) => await postCallback(server.webhookUrl, body, { query: { token } })),
			);

			expect(answers.map((answer) => answer.status)).toEqual([401, 200, 401, 200, 401, 200]);
			expect(server.executions).toHaveLength(1);
		});

		test('a first delivery whose read fails (403) starts nothing (503); one waiting for it reads and starts, the last is a duplicate', async () => {
			const server = await trigger({}, { baseUrl });
			failNext = 1;
			const body = result({ id: randomUUID() });
			const answers = await Promise.all([0, 1, 2].map(async () => await postCallback(server.webhookUrl, body)));
			expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 503]);
			expect(answers.filter((answer) => (answer.body as IDataObject).duplicate === true)).toHaveLength(1);
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0][0].json).not.toHaveProperty('error');
			expect(server.executions[0][0].json.isSafe).toEqual(expect.any(Boolean));
		});
	});
});
