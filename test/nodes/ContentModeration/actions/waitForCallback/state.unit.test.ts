/** state.ts's constants and finalOutputs without Route by Verdict. */
import { finalOutputs, STATE_KEY } from '@package/nodes/ContentModeration/actions/waitForCallback/state';
import { contentModerationNode } from '@test/helpers/fixtures';

test("the state's key in node context, saved with waiting executions, and the outputs without routing", () => {
	expect(STATE_KEY).toBe('waitForCallback');
	const state = { secret: 's', items: [{ id: 'm-0' }, { result: { id: 'm-1' } }, { error: { error: 'x' } }] };
	const outputs = finalOutputs(contentModerationNode, { analysisOf: (r) => r }, state, () => undefined, []);
	expect(outputs).toEqual([
		[
			{ json: {}, pairedItem: { item: 0 } },
			{ json: { id: 'm-1' }, pairedItem: { item: 1 } },
			{ json: { error: 'x' }, pairedItem: { item: 2 } },
		],
	]);
});
