/** repeats.ts on a fake context and fake run claims: which completions are told apart, and what each turn means. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isRepeatElseClaim, repeatKey } from '@package/nodes/ContentModeration/actions/callback/repeats';
import { completionKey } from '@package/nodes/ContentModeration/inbound/deliveries';
import type { RunClaims } from '@package/nodes/ContentModeration/inbound/runClaims';
import { executeContext, rejection } from '@test/helpers/operationFakes';

const EVENT = 'moderation.completed';
const data = (id = 'm-1') => ({ id, isSafe: true }) as IDataObject & { id: string };

function context(mode = 'webhook', workflow: { id?: string } = { id: 'wf-1' }, nodeId = 'node-1'): IExecuteFunctions {
	return executeContext({}, {
		getMode: () => mode,
		getWorkflow: () => workflow,
		getNode: () => ({ id: nodeId, name: 'Receive' }),
	});
}

describe('repeatKey', () => {
	it("production executions (webhook, trigger): the completion's key for this workflow's Receive node", () => {
		const key = completionKey(['wf-1', 'receive', 'node-1'], EVENT, data());
		expect(repeatKey(context('webhook'), EVENT, data())).toBe(key);
		expect(repeatKey(context('trigger'), EVENT, data())).toBe(key);
	});

	it('another workflow or another Receive node keeps its own key', () => {
		const key = repeatKey(context(), EVENT, data());
		expect(repeatKey(context('webhook', { id: 'wf-2' }), EVENT, data())).not.toBe(key);
		expect(repeatKey(context('webhook', { id: 'wf-1' }, 'node-2'), EVENT, data())).not.toBe(key);
		// A workflow without an id is keyed as an empty one.
		expect(repeatKey(context('webhook', {}), EVENT, data())).toBe(repeatKey(context('webhook', { id: '' }), EVENT, data()));
	});

	it('none for manual and retried executions, and none for a callback without an id', () => {
		expect(repeatKey(context('manual'), EVENT, data())).toBeUndefined();
		expect(repeatKey(context('retry'), EVENT, data())).toBeUndefined();
		expect(repeatKey(context('webhook'), EVENT, data(''))).toBeUndefined();
	});
});

describe('isRepeatElseClaim', () => {
	const claims = (turn: string) => {
		const asked: Array<[string, number]> = [];
		const fake = { turn: async (key: string, itemIndex: number) => (asked.push([key, itemIndex]), turn) };
		return { claims: fake as unknown as RunClaims, asked };
	};

	it('asks the run for the turn of its key: a repeat is true, a first delivery false', async () => {
		const repeat = claims('repeat');
		expect(await isRepeatElseClaim.call(context(), repeat.claims, 4, EVENT, data())).toBe(true);
		expect(repeat.asked).toEqual([[repeatKey(context(), EVENT, data()), 4]]);
		expect(await isRepeatElseClaim.call(context(), claims('pass').claims, 0, EVENT, data())).toBe(false);
	});

	it('not production: always passed on, the run not asked', async () => {
		const { claims: asked, asked: calls } = claims('repeat');
		expect(await isRepeatElseClaim.call(context('manual'), asked, 0, EVENT, data())).toBe(false);
		expect(calls).toEqual([]);
	});

	it('held by another execution: fails the item, naming the moderation', async () => {
		const error = await rejection(isRepeatElseClaim.call(context(), claims('busy').claims, 0, EVENT, data('m-7')));
		expect(error.message).toContain('m-7');
		expect(error.description).toMatch(/\S/);
	});
});
