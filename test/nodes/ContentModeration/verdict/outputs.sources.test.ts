/**
 * Route by Verdict (outputs.ts): the modes that cannot be routed, and results read back (Queue > Get Item,
 * Text > Get).
 */
import type { IDataObject } from 'n8n-workflow';

import type { MockService } from '@dev/mock/server';
import { SAFE_TEXT } from '@dev/mock/fixtures';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { pairedIndex } from '@test/helpers/fixtures';
import { FLAGGED, imageUrl, inputs, moderate, names, NODE, SAFE, useRoutingMock } from '@test/helpers/routing';

const routing = useRoutingMock();
const { credentials } = routing;
let mock: MockService;
beforeAll(() => {
	mock = routing.mock;
});

describe('results that cannot be routed', () => {
	it('refuses plain deferred mode before submitting, naming Mode and Route by Verdict', async () => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({}, { mode: 'deferred' }))],
			credentials: credentials(),
			items: inputs({ clean: imageUrl('clean') }),
		});
		expect(run.status).toBe('error');
		const message = `${run.errorOf(NODE)?.message} ${run.errorOf(NODE)?.description ?? ''}`;
		expect(message).toMatch(/Route by Verdict/);
		expect(message).toMatch(/Mode "Deferred"/);
		expect(mock.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});

	it('routes deferredWait results once the wait is over', async () => {
		const run = await runWorkflow({
			nodes: [moderationNode(moderate({}, { mode: 'deferredWait', pollInterval: 1, waitTimeout: 20 }))],
			credentials: credentials(),
			items: inputs({ notSafe: imageUrl('not-safe', { safe: false }) }),
		});
		expect(run.error).toBeUndefined();
		expect(names(run.outputOf(NODE, FLAGGED))).toEqual(['notSafe']);
		expect(run.outputOf(NODE, FLAGGED)[0].json.moderation).toMatchObject({ isSafe: false, id: expect.any(String) });
	});
});

/** Adds a queue item over HTTP and, when asked, waits (bounded) until the mock has processed it. */
async function addQueueItem(type: 'text' | 'image', content: string, processed: boolean): Promise<IDataObject> {
	const headers = { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' };
	const added = (await (
		await fetch(`${mock.url}/queues/routing-q`, { method: 'POST', headers, body: JSON.stringify({ type, content }) })
	).json()) as IDataObject;
	for (let attempt = 0; attempt < 100; attempt++) {
		const item = (await (
			await fetch(`${mock.url}/queues/routing-q/items/${String(added.id)}`, { headers })
		).json()) as IDataObject;
		if (!processed || item.moderation !== null) return item;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	throw new Error('queue item was not processed within 2 s');
}

describe('Queue > Get Item and Text > Get', () => {
	// Only `moderation` decides readiness: a moderated review-queue item still reads `pending` (no decision yet).
	it('routes a moderated queue item (status pending) by its moderation, the item under moderation', async () => {
		const queued = await addQueueItem('image', imageUrl('queued', { safe: false }), true);
		expect(queued.status).toBe('pending');
		const run = await runWorkflow({
			nodes: [
				moderationNode({
					resource: 'queue',
					operation: 'getItem',
					queueId: 'routing-q',
					itemId: String(queued.id),
					routeByVerdict: true,
				}),
			],
			credentials: credentials(),
			items: [{ json: { ticket: 7 } }],
		});
		expect(run.error).toBeUndefined();
		const [item] = run.outputOf(NODE, FLAGGED);
		expect(item.json).toMatchObject({ ticket: 7, verdict: 'flagged', verdictReasons: ['isSafe is false'] });
		expect(item.json.moderation).toMatchObject({ id: queued.id, moderation: { isSafe: false } });
	});

	it('refuses a queue item without moderation yet, or puts the error on Flagged with Continue', async () => {
		mock.configure({ processMs: 60_000 });
		try {
			const queued = await addQueueItem('text', 'hello there', false);
			// Not moderated yet: processing, moderation null.
			expect(queued).toMatchObject({ status: 'processing', moderation: null });
			const node = (onError?: 'continueRegularOutput') =>
				moderationNode(
					{ resource: 'queue', operation: 'getItem', queueId: 'routing-q', itemId: String(queued.id), routeByVerdict: true },
					onError ? { onError } : {},
				);
			const failed = await runWorkflow({ nodes: [node()], credentials: credentials() });
			expect(failed.status).toBe('error');
			expect(failed.errorOf(NODE)?.message).toMatch(/has no moderation yet.*Route by Verdict/);

			const continued = await runWorkflow({ nodes: [node('continueRegularOutput')], credentials: credentials() });
			expect(continued.error).toBeUndefined();
			expect(continued.outputOf(NODE, FLAGGED)).toHaveLength(1);
			expect(String(continued.outputOf(NODE, FLAGGED)[0].json.error)).toMatch(/has no moderation yet/);
			expect(continued.outputOf(NODE, SAFE)).toEqual([]);
		} finally {
			mock.configure({ processMs: 50 });
		}
	});

	it('routes a text moderation read by id, with a risk threshold taken from its own score', async () => {
		const queued = await addQueueItem('text', SAFE_TEXT, true);
		const text = queued.moderation as IDataObject;
		expect(text.isSafe).toBe(true);
		const overall = (text.riskScores as IDataObject).overall as number;
		const run = await runWorkflow({
			nodes: [
				moderationNode({
					resource: 'text',
					operation: 'get',
					textId: '={{ $json.id }}',
					routeByVerdict: true,
					riskThreshold: '={{ $json.threshold }}',
					keepInput: false,
				}),
			],
			credentials: credentials(),
			items: [
				{ json: { id: text.id, threshold: overall } },
				{ json: { id: text.id, threshold: overall + 1 } },
			],
		});
		expect(run.error).toBeUndefined();
		const [flagged] = run.outputOf(NODE, FLAGGED);
		expect(flagged.json).toMatchObject({ id: text.id, verdict: 'flagged' });
		expect(flagged.json.verdictReasons).toContain(`riskScores.overall ${overall} >= threshold ${overall}`);
		expect(pairedIndex(flagged)).toBe(0);
		const [safe] = run.outputOf(NODE, SAFE);
		expect(pairedIndex(safe)).toBe(1);
		expect(safe.json).toMatchObject({ id: text.id, verdict: 'safe' });
	});
});
