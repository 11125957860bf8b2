/** Route by Decision's rules (decision.ts), without the engine: the decision of an item and the output it goes to. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { decisionOf, decisionProperties, routeByDecision } from '@package/nodes/ContentModeration/actions/queue/decision';

it('Route by Decision is a switch, off by default, offered only while Route by Verdict is off', () => {
	expect(decisionProperties).toHaveLength(1);
	expect(decisionProperties[0]).toMatchObject({
		name: 'routeByDecision',
		type: 'boolean',
		default: false,
		noDataExpression: true,
		displayOptions: { show: { routeByVerdict: [false] } },
	});
});

describe('decisionOf', () => {
	it.each<[IDataObject, string]>([
		[{ status: 'accepted', accepted: true }, 'accepted'],
		[{ status: 'rejected', accepted: false }, 'rejected'],
		// A service that sets only the boolean.
		[{ accepted: true }, 'accepted'],
		[{ accepted: false }, 'pending'],
		[{}, 'pending'],
		// A status wins over the boolean: nothing undecided is accepted.
		[{ status: 'pending', accepted: true }, 'pending'],
		[{ status: 'error', accepted: true }, 'pending'],
	])('%j: %s', (item, decision) => {
		expect(decisionOf(item)).toBe(decision);
	});
});

describe('routeByDecision', () => {
	it('sends each item to Accepted, Rejected or Pending with its decision; a failed one is noted; an error item goes to Pending as it is', () => {
		const item = (json: IDataObject, index: number): INodeExecutionData => ({ json, pairedItem: { item: index } });
		const errorItem = item({ error: 'Not found' }, 3);
		const [accepted, rejected, pending] = routeByDecision([
			item({ id: 'a', status: 'accepted' }, 0),
			item({ id: 'r', status: 'rejected' }, 1),
			item({ id: 'p', status: 'pending' }, 2),
			errorItem,
			item({ id: 'e', status: 'error' }, 4),
		]);
		expect(accepted).toEqual([item({ id: 'a', status: 'accepted', decision: 'accepted' }, 0)]);
		expect(rejected).toEqual([item({ id: 'r', status: 'rejected', decision: 'rejected' }, 1)]);
		expect(pending).toEqual([
			item({ id: 'p', status: 'pending', decision: 'pending' }, 2),
			errorItem,
			item({ id: 'e', status: 'error', decision: 'pending', decisionNote: expect.stringMatching(/\S/) }, 4),
		]);
	});

	it('always three outputs, empty ones included', () => {
		expect(routeByDecision([])).toEqual([[], [], []]);
	});
});
