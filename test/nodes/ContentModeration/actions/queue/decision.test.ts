/** Queue > Get Item with Route by Decision, through n8n-core's engine against the mock (a person's decision via decide()). */
import type { INodeExecutionData } from 'n8n-workflow';

import { PROFANE_TEXT, SAFE_TEXT } from '@dev/mock/fixtures';
import { NODE_NAME, useMock, whenProcessed } from '@test/helpers/nodeRun';
import { addTextItem } from '@test/helpers/nodeRun';

const mock = useMock({ processMs: 20 });

const getItem = { resource: 'queue', operation: 'getItem', queueId: 'reviews', itemId: '={{ $json.id }}', routeByDecision: true };
const ACCEPTED = 0;
const REJECTED = 1;
const PENDING = 2;

describe('Queue > Get Item, Route by Decision', () => {
	it('sends accepted, rejected and undecided items to Accepted, Rejected and Pending, paired, with decision on top', async () => {
		const items = [];
		for (const text of [SAFE_TEXT, PROFANE_TEXT, SAFE_TEXT, 'this will mock_fail']) items.push(await addTextItem(mock, 'reviews', text));
		await whenProcessed(mock);
		mock.service.decide('reviews', String(items[0].id), 'accepted');
		mock.service.decide('reviews', String(items[1].id), 'rejected');

		const input: INodeExecutionData[] = items.map((item, index) => ({ json: { id: item.id, index } }));
		const run = await mock.run(getItem, input);
		expect(run.status).toBe('success');
		const names = (output: number) => run.outputOf(NODE_NAME, output).map((item) => [item.json.id, item.json.decision, item.pairedItem]);
		expect(names(ACCEPTED)).toEqual([[items[0].id, 'accepted', { item: 0 }]]);
		expect(names(REJECTED)).toEqual([[items[1].id, 'rejected', { item: 1 }]]);
		expect(names(PENDING)).toEqual([
			[items[2].id, 'pending', { item: 2 }],
			[items[3].id, 'pending', { item: 3 }],
		]);
		// A failed moderation waits for no decision: said so on the item.
		const failed = run.outputOf(NODE_NAME, PENDING)[1].json;
		expect(failed.status).toBe('error');
		expect(String(failed.decisionNote)).toContain('no decision will come');
	});

	it('continueOnFail: an item that could not be read goes to Pending (never Accepted or Rejected), paired', async () => {
		const unknown = '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918';
		const run = await mock.run(getItem, [{ json: { id: unknown } }], { onError: 'continueRegularOutput' });
		expect(run.status).toBe('success');
		expect(run.outputOf(NODE_NAME, ACCEPTED)).toEqual([]);
		expect(run.outputOf(NODE_NAME, REJECTED)).toEqual([]);
		const [pending] = run.outputOf(NODE_NAME, PENDING);
		expect(pending.pairedItem).toEqual({ item: 0 });
		expect(String(pending.json.error)).toContain(unknown);
	});

	it('off: one output, the item as the service answers it', async () => {
		const added = await addTextItem(mock, 'reviews', SAFE_TEXT);
		const run = await mock.run({ ...getItem, routeByDecision: false }, [{ json: { id: added.id } }]);
		expect(run.status).toBe('success');
		expect(run.outputOf(NODE_NAME, 0)[0].json).not.toHaveProperty('decision');
		expect(run.outputOf(NODE_NAME, 1)).toEqual([]);
	});
});
