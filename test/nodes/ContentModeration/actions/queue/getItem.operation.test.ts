/** Queue > Get Item, through n8n-core's engine against the mock. */
import type { IDataObject } from 'n8n-workflow';

import { PROFANE_TEXT, PROFANE_TEXT_FILTERED } from '@dev/mock/fixtures';
import { addTextItem, nodeError, output, useMock, whenProcessed } from '@test/helpers/nodeRun';

const mock = useMock({ processMs: 30 });

describe('Queue > Get Item', () => {
	it('reads an item back with the ids Add Item output (expressions from the previous node)', async () => {
		const added = await addTextItem(mock, 'comments', PROFANE_TEXT);
		await whenProcessed(mock);
		mock.service.reset();
		const run = await mock.run(
			{ resource: 'queue', operation: 'getItem', queueId: '={{ $json.queueId }}', itemId: '={{ $json.id }}' },
			[{ json: added }],
		);
		expect(run.status).toBe('success');
		const [item] = output(run);
		expect(item.json).toEqual(
			expect.objectContaining({ id: added.id, type: 'text', status: 'pending', accepted: false, content: PROFANE_TEXT }),
		);
		expect((item.json.moderation as IDataObject).filteredContent).toBe(PROFANE_TEXT_FILTERED);
		expect(mock.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /queues/comments/items/${added.id as string}`,
		]);
	});

	it('answers 404 with the service message for an unknown item', async () => {
		const unknown = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a';
		const run = await mock.run({ resource: 'queue', operation: 'getItem', queueId: 'comments', itemId: unknown });
		const error = nodeError(run);
		expect(error.httpCode).toBe('404');
		expect(error.message).toContain(unknown);
	});

	it('Route by Verdict on an item whose moderation failed (status error) says no verdict will come, never "read it again"', async () => {
		const added = await addTextItem(mock, 'comments', 'this will mock_fail');
		await whenProcessed(mock);
		const run = await mock.run({ resource: 'queue', operation: 'getItem', queueId: 'comments', itemId: String(added.id), routeByVerdict: true });
		const error = nodeError(run);
		expect(error.message).toContain('status "error"');
		expect(error.message).toContain('no verdict will come');
		expect(error.description).not.toMatch(/read the item again/i);
		expect(error.description).toContain('Do not read it again: add the content again');
	});

	it("Route by Verdict: a clean text a person rejected goes to Flagged; one not decided yet to Review", async () => {
		const rejected = await addTextItem(mock, 'comments', 'a perfectly friendly comment');
		const undecided = await addTextItem(mock, 'comments', 'another friendly comment');
		await whenProcessed(mock);
		mock.service.decide('comments', String(rejected.id), 'rejected');
		const run = await mock.run(
			{ resource: 'queue', operation: 'getItem', queueId: 'comments', itemId: '={{ $json.id }}', routeByVerdict: true, reviewOutput: true },
			[{ json: rejected }, { json: undecided }],
		);
		expect(run.status).toBe('success');
		const [safe, flagged, review] = [0, 1, 2].map((n) => run.outputOf('Content Moderation', n));
		expect(safe).toEqual([]);
		expect(flagged.map((i) => [i.json.verdict, i.json.verdictReasons])).toEqual([['flagged', ['a reviewer rejected it (status "rejected")']]]);
		expect((flagged[0].json.moderation as IDataObject).moderation).toMatchObject({ isSafe: true });
		expect(review.map((i) => [i.json.verdict, i.json.verdictReasons, i.pairedItem])).toEqual([
			['review', ['awaiting a reviewer\'s decision (status "pending")'], { item: 1 }],
		]);
	});
});
