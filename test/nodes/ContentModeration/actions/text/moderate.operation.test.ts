/** Text > Moderate (via Queue), node versions 1-2, through n8n-core's engine against the mock and a scripted service. */
import type { IDataObject } from 'n8n-workflow';

import { PROFANE_TEXT, PROFANE_TEXT_FILTERED, REVIEW_TEXT, SAFE_TEXT } from '@dev/mock/fixtures';
import { expectNoToken, nodeError, NODE_NAME, output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';
import { startScriptedServer } from '@test/helpers/scripted-server';

const mock = useMock({ processMs: 50 });

/** Fast polling for the tests; the defaults (1 s, 60 s) are measured by the bench. */
const moderate = (text: string, extra: IDataObject = {}) => ({
	resource: 'text',
	operation: 'moderate',
	text,
	queueId: 'chat',
	pollInterval: 0.1,
	...extra,
});

const requestLines = () => mock.service.requests.map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, '<id>')} ${r.status}`);

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

	it('sends each POST once when the service throttles (429 before acting) and reads go through the same retries', async () => {
		mock.service.configure({ throttleRate: 0.34, retryAfterSeconds: 0 });
		try {
			const texts = [SAFE_TEXT, PROFANE_TEXT, REVIEW_TEXT];
			const run = await mock.run(moderate('={{ $json.text }}', { options: { actorId: '={{ $json.actor }}' } }),
				texts.map((text, i) => ({ json: { text, actor: `actor-${i}` } })));
			expect(run.status).toBe('success');
			expect(output(run).map((item) => item.json.content)).toEqual(texts);
			expect(mock.service.requests.some((r) => r.status === 429)).toBe(true);
			for (let i = 0; i < texts.length; i++) expect(mock.service.submissions.get(`actor:actor-${i}`)).toBe(1);
		} finally {
			mock.service.configure({ throttleRate: 0, retryAfterSeconds: 1 });
		}
	});
});

describe('Text > Moderate: Submit Only', () => {
	it('outputs what Queue > Add Item does and reads nothing', async () => {
		const run = await mock.run(moderate(SAFE_TEXT, { mode: 'submit' }));
		expect(output(run)[0].json).toEqual({ id: expect.any(String), status: 'processing', queueId: 'chat' });
		expect(requestLines()).toEqual(['POST /queues/chat 200']);
	});
});

describe('Text > Moderate: bad input', () => {
	it.each([
		['an empty text', { text: '  ' }, 'The Text is empty', 'Enter the text to moderate'],
		['a queue id under 3 characters', { queueId: 'ab' }, 'The Queue ID "ab" is too short', 'at least 3 characters'],
	])('fails the item on %s before anything is sent, naming the field and the fix', async (_case, bad, message, fix) => {
		const run = await mock.run(moderate(SAFE_TEXT, bad));
		const error = nodeError(run);
		expect(error.message).toContain(message);
		expect(error.description).toContain(fix);
		expect(mock.service.requests).toHaveLength(0);
	});

	it('under continueOnFail gives one error item paired to the bad input, the others moderated', async () => {
		const run = await mock.run(moderate('={{ $json.text }}'), [{ json: { text: SAFE_TEXT } }, { json: { text: '' } }, { json: { text: REVIEW_TEXT } }], {
			onError: 'continueRegularOutput',
		});
		const items = output(run);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json.error).toContain('The Text is empty');
		expect([items[0].json.content, items[2].json.content]).toEqual([SAFE_TEXT, REVIEW_TEXT]);
		expect(mock.service.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
	});
});

describe('Text > Moderate: Route by Verdict', () => {
	it('sends safe, flagged and review texts to their outputs with the input kept', async () => {
		const texts = [SAFE_TEXT, PROFANE_TEXT, REVIEW_TEXT];
		const run = await mock.run(moderate('={{ $json.message }}', { routeByVerdict: true, reviewOutput: true }),
			texts.map((message, i) => ({ json: { message, user: i } })));
		expect(run.status).toBe('success');
		const [safe, flagged, review] = [0, 1, 2].map((index) => run.outputOf(NODE_NAME, index));
		expect(safe.map((item) => [item.json.user, item.json.verdict, item.pairedItem])).toEqual([[0, 'safe', { item: 0 }]]);
		expect(flagged.map((item) => [item.json.user, item.json.verdict])).toEqual([[1, 'flagged']]);
		expect(review.map((item) => [item.json.user, item.json.verdict])).toEqual([[2, 'review']]);
		expect((flagged[0].json.moderation as IDataObject).filteredContent).toBe(PROFANE_TEXT_FILTERED);
		expect(flagged[0].json.message).toBe(PROFANE_TEXT);
	});

	it('refuses Submit Only before anything is sent', async () => {
		const run = await mock.run(moderate(SAFE_TEXT, { mode: 'submit', routeByVerdict: true }));
		expect(nodeError(run).message).toContain('Mode "Submit Only"');
		expect(mock.service.requests).toHaveLength(0);
	});
});
