/** The saved state of Wait for Callback as a callback reads it back through an expression. */
import type { IWebhookFunctions } from 'n8n-workflow';

import { readState, STATE_KEY, waitingId } from '@package/nodes/ContentModeration/actions/waitForCallback/state';

function webhookContext(nodeName: string, value: unknown): { ctx: IWebhookFunctions; expressions: string[] } {
	const expressions: string[] = [];
	const ctx = {
		getNode: () => ({ name: nodeName }),
		evaluateExpression: (expression: string) => {
			expressions.push(expression);
			return value;
		},
	} as unknown as IWebhookFunctions;
	return { ctx, expressions };
}

describe('readState', () => {
	it('reads the node context under its key, with braces in the node name escaped', () => {
		const state = { secret: 's', items: [{ id: 'a' }] };
		const { ctx, expressions } = webhookContext('Check {x}', state);
		expect(readState(ctx)).toBe(state);
		expect(expressions).toEqual([`{{ $node["Check \\u007bx\\u007d"].context["${STATE_KEY}"] }}`]);
	});

	it('is undefined for anything that is not a saved state', () => {
		for (const value of [undefined, null, 'x', {}, { secret: 's' }, { items: [] }, { secret: 1, items: [] }]) {
			expect(readState(webhookContext('Node', value).ctx)).toBeUndefined();
		}
	});
});

describe('waitingId', () => {
	it('is the id of an item still waiting, else undefined', () => {
		expect(waitingId({ id: 'a' })).toBe('a');
		expect(waitingId({ result: {} })).toBeUndefined();
		expect(waitingId({ error: {} })).toBeUndefined();
		expect(waitingId(undefined)).toBeUndefined();
	});
});
