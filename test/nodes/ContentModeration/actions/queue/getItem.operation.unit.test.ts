/** Queue > Get Item (getItem.operation.ts) on a fake context and client: fields, verdict facts, the read, Route by Decision. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import * as getItem from '@package/nodes/ContentModeration/actions/queue/getItem.operation';
import { contentModerationNode } from '@test/helpers/fixtures';
import { executeContext, fakeRun, rejection } from '@test/helpers/operationFakes';

describe('Queue > Get Item, its fields', () => {
	it('Queue ID, a required Item ID, Route by Verdict and by Decision, Options', () => {
		const names = getItem.description.map((p) => p.name);
		expect(names.slice(0, 2)).toEqual(['queueId', 'itemId']);
		expect(names).toEqual(expect.arrayContaining(['routeByVerdict', 'routeByDecision', 'options']));
		expect(getItem.description[1]).toMatchObject({ type: 'string', default: '', required: true });
		expect(getItem.option.value).toBe('getItem');
		expect(getItem.toolDescription).toContain('status');
	});
});

describe('Queue > Get Item, Route by Verdict', () => {
	const missing = (result: IDataObject) => {
		const error = getItem.verdict.missingAnalysis?.(contentModerationNode, result, 0);
		if (error === undefined) throw new Error('no error');
		return error;
	};

	it('judges the moderation inside the item, none until it is processed', () => {
		const moderation = { isSafe: true };
		expect(getItem.verdict.analysisOf({ status: 'pending', moderation })).toBe(moderation);
		expect(getItem.verdict.analysisOf({ status: 'processing', moderation: null })).toBeUndefined();
	});

	it("a person's rejection flags, an item still to be decided awaits review, any other status adds nothing", () => {
		const standing = (result: IDataObject) => getItem.verdict.standingOf?.(result);
		expect(standing({ status: 'rejected', accepted: false })?.flag).toMatch(/reviewer rejected it/);
		expect(standing({ status: 'rejected' })?.review).toBeUndefined();
		expect(standing({ status: 'pending', accepted: false })?.review).toMatch(/awaiting a reviewer/);
		expect(standing({ status: 'pending' })?.flag).toBeUndefined();
		for (const status of ['accepted', 'processing', 'error', undefined, 'Rejected']) expect(standing({ status })).toBeUndefined();
	});

	it('an item without a moderation yet: its id and status are named', () => {
		const error = missing({ id: 'q-1', status: 'processing' });
		expect(error.message).toContain('"q-1"');
		expect(error.message).toContain('(status "processing")');
		expect(error.description).toMatch(/\S/);
		// Without an id (or with one that is not text) the item is not named by an empty one; a status that is not text is left out.
		expect(missing({ status: 42 }).message).toMatch(/^The queue item has no moderation yet, so /);
		expect(missing({ id: '', status: 'pending' }).message).toMatch(/^The queue item has no moderation yet \(status "pending"\), so /);
		expect(missing({ id: 7 }).message).toMatch(/^Queue item "7" has no moderation yet/);
		expect(missing({ id: { x: 1 } }).message).toMatch(/^The queue item has no/);
	});

	it('a failed moderation (status error) gets its own error: no verdict will come', () => {
		const failed = missing({ id: 'q-1', status: 'error' });
		expect(failed.message).toContain('"q-1"');
		expect(failed.message).toContain('status "error"');
		expect(failed.description).toMatch(/\S/);
		expect(failed.description).not.toBe(missing({ id: 'q-1', status: 'processing' }).description);
		// Its own error even with a moderation object: "read it again" would loop for ever.
		expect(missing({ id: 'q-1', status: 'error', moderation: {} }).message).toContain('status "error"');
		expect(missing({ status: 'error' }).message).toMatch(/^The automatic moderation of the queue item failed/);
	});

	it('a moderation there but incomplete: no own error (the generic one names what it lacks)', () => {
		const half = { id: 'q-1', status: 'pending', moderation: { isSafe: true } };
		expect(getItem.verdict.missingAnalysis?.(contentModerationNode, half, 0)).toBeUndefined();
	});
});

describe('Queue > Get Item, the read', () => {
	it('GET /queues/{queueId}/items/{itemId}; the answer is the output', async () => {
		const { run, sent } = fakeRun(() => ({ id: 'i/1', status: 'pending' }));
		const result = await getItem.execute.call(executeContext({ queueId: 'q 1', itemId: 'i/1' }), 2, run);
		expect(sent).toEqual([{ method: 'GET', path: '/queues/q%201/items/i%2F1', body: undefined, itemIndex: 2 }]);
		expect(result).toEqual({ id: 'i/1', status: 'pending' });
	});

	it.each([
		['Queue ID', { itemId: 'i-1' }],
		['Item ID', { queueId: 'q-1' }],
	])('an empty %s fails the item naming it; nothing is sent', async (name, parameters) => {
		const { run, sent } = fakeRun();
		expect((await rejection(getItem.execute.call(executeContext(parameters), 0, run))).message).toContain(name);
		expect(sent).toEqual([]);
	});
});

describe('Queue > Get Item, Route by Decision', () => {
	const results: INodeExecutionData[] = [{ json: { status: 'accepted' } }];
	const finish = async (parameters: IDataObject, routing: boolean) =>
		await getItem.finishRun.call(executeContext(parameters), results, routing, []);

	it('on: three outputs by decision', async () => {
		const outputs = await finish({ routeByDecision: true }, false);
		expect(outputs?.map((output) => output.length)).toEqual([1, 0, 0]);
	});

	it('off (or not set), or Route by Verdict on: the router outputs', async () => {
		expect(await finish({ routeByDecision: false }, false)).toBeUndefined();
		expect(await finish({}, false)).toBeUndefined();
		expect(await finish({ routeByDecision: true }, true)).toBeUndefined();
	});
});
