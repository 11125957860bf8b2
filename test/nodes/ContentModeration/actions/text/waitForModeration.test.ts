/** Text > Moderate (via Queue), versions 1-2: the wait for the queue item's moderation (waitForModeration.ts), through n8n-core's engine against the mock and a scripted service. */
import { PROFANE_TEXT, PROFANE_TEXT_FILTERED, SAFE_TEXT } from '@dev/mock/fixtures';
import { expectNoToken, nodeError, output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';
import { moderateQueuedText, requestLines as requestLinesOf } from '@test/helpers/parameters';
import { startScriptedServer } from '@test/helpers/scripted-server';

const mock = useMock({ processMs: 50 });

const moderate = moderateQueuedText;
const requestLines = () => requestLinesOf(mock.service);

describe('Text > Moderate: Wait for Result', () => {
	it('adds the text once, reads the item until moderation is there, outputs the text moderation with queue and item ids', async () => {
		const run = await mock.run(moderate(PROFANE_TEXT, { options: { meta: 'post-7', actorId: 'user-1' } }));
		expect(run.status).toBe('success');
		const [item] = output(run);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toMatchObject({
			isSafe: false,
			content: PROFANE_TEXT,
			filteredContent: PROFANE_TEXT_FILTERED,
			meta: 'post-7',
			queueId: 'chat',
			itemId: mock.service.submissionLog[0].id,
		});
		expect(item.json.id).not.toBe(item.json.itemId);
		const lines = requestLines();
		expect(lines[0]).toBe('POST /queues/chat 200');
		expect(lines.slice(1).every((line) => line === 'GET /queues/chat/items/<id> 200')).toBe(true);
		expect(mock.service.requests[0].body).toEqual({ type: 'text', content: PROFANE_TEXT, meta: 'post-7', actorId: 'user-1' });
		expect(mock.service.submissionLog).toHaveLength(1);
	});

	it('completes a moderation that holds only an id with GET /text/{id}, and never trusts the status', async () => {
		// A service whose queue item names its text moderation only by id (the rebuilt mock always holds the full one).
		const itemId = '11111111-2222-4333-8444-555555555555';
		const textId = '66666666-7777-4888-8999-000000000000';
		const server = await startScriptedServer((request) => {
			if (request.method === 'POST') return { status: 200, body: { id: itemId, status: 'processing' } };
			if (request.path.startsWith('/queues/')) return { status: 200, body: { id: itemId, status: 'pending', moderation: { id: textId } } };
			return { status: 200, body: { id: textId, isSafe: true, content: SAFE_TEXT, filteredContent: SAFE_TEXT } };
		});
		try {
			const run = await mock.run(moderate(SAFE_TEXT), undefined, { baseUrl: server.url });
			expect(run.status).toBe('success');
			const [item] = output(run);
			expect(item.json).toMatchObject({ isSafe: true, content: SAFE_TEXT, filteredContent: SAFE_TEXT, queueId: 'chat', itemId, id: textId });
			const paths = server.requests.map((r) => `${r.method} ${r.path}`);
			expect(paths).toEqual(['POST /queues/chat', `GET /queues/chat/items/${itemId}`, `GET /text/${textId}`]);
		} finally {
			await server.stop();
		}
	});

	it('uses the default queue and reads first after one poll interval', async () => {
		const started = Date.now();
		const run = await mock.run({ resource: 'text', operation: 'moderate', text: SAFE_TEXT, pollInterval: 0.3 });
		expect(run.status).toBe('success');
		const [post, firstRead] = mock.service.requests;
		expect(post.path).toBe('/queues/n8n-text-moderation');
		// The mock processes in 50 ms, so one read right after the interval finds the moderation.
		expect(firstRead.time - post.time).toBeGreaterThanOrEqual(250);
		expect(mock.service.requests).toHaveLength(2);
		expect(Date.now() - started).toBeGreaterThanOrEqual(300);
	});

	it('fails the item on timeout naming the queue item id; continueOnFail gives one paired error item; the POST went once', async () => {
		mock.service.configure({ textProcessMs: 5_000 });
		try {
			const run = await mock.run(moderate(SAFE_TEXT, { waitTimeout: 1, pollInterval: 0.2 }));
			const error = nodeError(run);
			const itemId = mock.service.submissionLog[0].id;
			expect(error.message).toContain(`queue item "${itemId}" in queue "chat"`);
			expect(error.description).toContain('Queue > Get Item');
			expect(error.context?.itemIndex).toBe(0);
			expectNoToken(run, SECRET_TOKEN);

			mock.service.reset();
			const goOn = await mock.run(moderate(SAFE_TEXT, { waitTimeout: 1, pollInterval: 0.2 }), [{ json: { n: 1 } }], {
				onError: 'continueRegularOutput',
			});
			expect(goOn.status).toBe('success');
			const items = output(goOn);
			expect(items).toHaveLength(1);
			expect(items[0].json.error).toContain(mock.service.submissionLog[0].id);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(mock.service.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		} finally {
			mock.service.configure({ textProcessMs: null });
		}
	});

});
