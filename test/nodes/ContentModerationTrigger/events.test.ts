/**
 * Version 3 of the trigger through n8n-core's real WebhookContext and real HTTP: the service's
 * `{event, data}` callbacks (results and review decisions), the choice of events, unknown events, flat
 * bodies, and a repeated delivery of one completion starting nothing. Versions 1-2 unwrap envelopes but
 * start on results only.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { deliveries } from '../../../packages/n8n-nodes-content-moderation/nodes/ContentModeration/callbacks/deliveries';
import { postCallback, startTriggerServer, type TriggerServer } from '../../helpers/webhook-server';

const SECRET = 'cb-secret-events-5c1e';

function imageResult(id: string = randomUUID(), extra: IDataObject = {}): IDataObject {
	return {
		id,
		isSafe: true,
		confidence: 93,
		description: 'A cat on a sofa',
		summary: { totalFlags: 0, contentRating: 'G', language: 'en', profanity: false },
		riskScores: { overall: 3 },
		topics: ['animals'],
		nsfwCategories: [],
		suggestedActions: { reject: false, review: false },
		hash: 'a1b2',
		meta: { postId: 'p-7' },
		...extra,
	};
}

function textResult(id: string = randomUUID(), extra: IDataObject = {}): IDataObject {
	return {
		id,
		isSafe: false,
		confidence: 88,
		sentiment: 'negative',
		sentimentScore: 20,
		summary: { totalFlags: 1, contentRating: 'PG-13', language: 'en', profanity: true },
		riskScores: { overall: 70, spam: 2, toxicity: 80 },
		topics: [],
		nsfwCategories: [{ category: 'profanity', severity: 60 }],
		suggestedActions: { reject: true, review: false },
		content: 'you idiot',
		filteredContent: 'you *****',
		original: 'you idiot',
		meta: { commentId: 'c-9' },
		...extra,
	};
}

function queueItem(decision: 'accepted' | 'rejected', id: string = randomUUID()): IDataObject {
	return {
		id,
		status: decision,
		accepted: decision === 'accepted',
		type: 'text',
		content: 'you idiot',
		moderation: textResult(),
		meta: { commentId: 'c-9' },
	};
}

const result = (data: IDataObject) => ({ event: 'moderation.completed', data });
const review = (data: IDataObject) => ({ event: 'queue.review.completed', data });

const servers: TriggerServer[] = [];
afterAll(async () => {
	await Promise.all(servers.map(async (server) => await server.stop()));
});
beforeEach(() => deliveries.clear());

async function trigger(
	parameters: INodeParameters = {},
	options: { typeVersion?: number; baseUrl?: string; secret?: string } = {},
): Promise<TriggerServer> {
	const server = await startTriggerServer({
		parameters,
		typeVersion: options.typeVersion ?? 3,
		credentials:
			options.baseUrl === undefined && options.secret === undefined
				? undefined
				: { baseUrl: options.baseUrl ?? 'http://127.0.0.1:9', accessToken: 'tok-events-1', callbackSecret: options.secret ?? '' },
	});
	servers.push(server);
	return server;
}

describe('version 3 reads {event, data}', () => {
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

describe('versions 1-2 unwrap envelopes and start on results only', () => {
	test.each([1, 2])('version %i', async (typeVersion) => {
		const server = await trigger({ events: 'all' }, { typeVersion });
		const data = imageResult();

		const started = await postCallback(server.webhookUrl, result(data));
		const decision = await postCallback(server.webhookUrl, review(queueItem('accepted')));
		const unknown = await postCallback(server.webhookUrl, { event: 'queue.item.deleted', data: { id: randomUUID() } });

		expect(started).toEqual({ status: 200, body: { received: true, id: data.id } });
		expect([decision.status, unknown.status]).toEqual([200, 200]);
		expect(decision.body).toMatchObject({ ignored: 'review decisions are not selected' });
		expect(server.executions).toHaveLength(1);
		// As these versions always gave it: the result's fields, no event.
		const { receivedAt: _r, ...item } = server.executions[0][0].json;
		expect(item).toEqual(data);
		// These versions keep starting on every delivery.
		await postCallback(server.webhookUrl, result(data));
		expect(server.executions).toHaveLength(2);
	});
});

describe('one workflow per completion (version 3)', () => {
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
		const other = await startTriggerServer({ parameters: {}, typeVersion: 3, webhookId: randomUUID() });
		servers.push(other);
		const answer = await postCallback(other.webhookUrl, body);
		expect(answer.body).not.toHaveProperty('duplicate');
		expect([one.executions.length, other.executions.length]).toEqual([1, 1]);
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
						res.writeHead(404, { 'content-type': 'application/json' });
						res.end(JSON.stringify({ error: 'not_found' }));
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

		test('a first delivery whose read fails still starts (with the error); the ones waiting for it are duplicates', async () => {
			const server = await trigger({}, { baseUrl });
			failNext = 1;
			const body = result({ id: randomUUID() });
			const answers = await Promise.all([0, 1, 2].map(async () => await postCallback(server.webhookUrl, body)));
			expect(answers.filter((answer) => (answer.body as IDataObject).duplicate === true)).toHaveLength(2);
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0][0].json.error).toMatchObject({ httpCode: '404' });
		});
	});
});
