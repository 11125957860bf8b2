/**
 * pauseForCallbacks (pause.ts) on a fake execute context: the state it saves per item, the resumer on n8n 1.x,
 * the deadline from Wait Timeout, the run it watches, and when it outputs at once instead of waiting.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	DEFAULT_CALLBACK_TIMEOUT_SECONDS,
	MAX_CALLBACK_TIMEOUT_SECONDS,
	noIdError,
	pauseForCallbacks,
	waitCallbackModeOption,
	waitCallbackTimeoutProperty,
} from '@package/nodes/ContentModeration/actions/waitForCallback/pause';
import { runKey, waitMemory } from '@package/nodes/ContentModeration/actions/waitForCallback/memory';
import { STATE_KEY, type WaitState } from '@package/nodes/ContentModeration/actions/waitForCallback/state';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';
import { contentModerationNode } from '@test/helpers/fixtures';

const NOW = Date.parse('2030-06-01T00:00:00.000Z');
const SIGNED = 'http://n8n.test/webhook-waiting/42?signature=abc';
const complete = (id: string): IDataObject => ({
	id,
	isSafe: true,
	suggestedActions: { reject: false, review: false },
	riskScores: { overall: 1 },
	nsfwCategories: [],
});

interface Setup {
	inputs?: number;
	timeout?: unknown;
	resumeUrl?: string;
	continueOnFail?: boolean;
}
function context({ inputs = 2, timeout, resumeUrl = SIGNED, continueOnFail = false }: Setup = {}) {
	const nodeContext: IDataObject = {};
	const waits: Date[] = [];
	const warnings: Array<[string, unknown]> = [];
	const input: INodeExecutionData[] = Array.from({ length: inputs }, (_, i) => ({ json: { input: i } }));
	const ctx = {
		getNode: () => contentModerationNode,
		getContext: () => nodeContext,
		getInputData: () => input,
		continueOnFail: () => continueOnFail,
		getNodeParameter: (name: string, _item: number, fallback: unknown) =>
			name === 'waitTimeout' ? (timeout ?? fallback) : fallback,
		evaluateExpression: (expression: string) => (expression === '{{ $execution?.resumeUrl }}' ? resumeUrl : undefined),
		getExecutionId: () => 'exec-9',
		logger: { warn: (message: string, meta: unknown) => warnings.push([message, meta]) },
		putExecutionToWait: async (until: Date) => void waits.push(until),
	};
	const state = () => nodeContext[STATE_KEY] as WaitState;
	return { ctx: ctx as unknown as IExecuteFunctions, state, waits, warnings, input };
}
const facts = { analysisOf: (result: IDataObject) => result };
const pause = async (c: ReturnType<typeof context>, results: INodeExecutionData[], hints: string[] = []) =>
	await pauseForCallbacks.call(c.ctx, facts, results, false, hints);

beforeEach(() => {
	resetProcessState();
	jest.spyOn(Date, 'now').mockReturnValue(NOW);
});
afterEach(() => jest.restoreAllMocks());

describe('what each item waits for', () => {
	test('ids to wait for, complete results and error items, by paired item; a missing answer is an error', async () => {
		const c = context({ inputs: 4 });
		const failed = {
			json: { error: 'refused' },
			error: new NodeOperationError(contentModerationNode, 'refused'),
			pairedItem: { item: 3 },
		};
		const out = await pause(c, [
			{ json: { id: 'm-1' }, pairedItem: { item: 1 } },
			{ json: complete('m-0'), pairedItem: { item: 0 } },
			failed,
		]);
		expect(c.state().items).toEqual([
			{ result: complete('m-0') },
			{ id: 'm-1' },
			{ error: { error: 'No result' } },
			{ error: { error: 'refused' } },
		]);
		expect(out).toEqual([c.input]);
		expect(c.waits).toHaveLength(1);
	});

	test('an answer without an id (or an empty one): the run fails, naming the item', async () => {
		for (const json of [{ status: 'queued' }, { id: '' }, { id: 7 }]) {
			const error = await pause(context({ inputs: 1 }), [{ json, pairedItem: { item: 0 } }]).catch(
				(e: unknown) => e as NodeOperationError,
			);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as NodeOperationError).message).toBe('The service did not return a moderation ID to wait for');
			expect((error as NodeOperationError).description).toBe(
				'Use Mode "Immediate" instead, or check that the service supports deferred moderation.',
			);
		}
	});

	test('with Continue On Fail: that item becomes an error item; nothing to wait for: output at once', async () => {
		const c = context({ inputs: 2, continueOnFail: true });
		const out = await pause(c, [{ json: { status: 'queued' } }, { json: complete('m-1') }]);
		expect(c.waits).toEqual([]);
		expect(c.state().continueOnFail).toBe(true);
		expect(out[0][0].json).toMatchObject({ error: 'The service did not return a moderation ID to wait for' });
		expect(out[0][1]).toEqual({ json: complete('m-1'), pairedItem: { item: 1 } });
	});

	test('no input: outputs an empty list without waiting', async () => {
		const c = context({ inputs: 0 });
		expect(await pause(c, [])).toEqual([[]]);
		expect(c.waits).toEqual([]);
	});
});

describe('waiting', () => {
	test('the deadline is Wait Timeout from now (default an hour, a year at most); the run is watched', async () => {
		for (const [timeout, seconds] of [
			[undefined, DEFAULT_CALLBACK_TIMEOUT_SECONDS],
			[90, 90],
			[10 ** 12, MAX_CALLBACK_TIMEOUT_SECONDS],
		] as const) {
			const c = context({ timeout });
			await pause(c, [{ json: { id: 'm-0' } }, { json: { id: 'm-1' } }]);
			const deadline = new Date(NOW + seconds * 1000);
			expect(c.waits).toEqual([deadline]);
			expect(c.state().deadline).toBe(deadline.toISOString());
			expect(
				waitMemory.run(runKey('exec-9', contentModerationNode.name, deadline.toISOString()), undefined).watched,
			).toBe(true);
		}
		expect(MAX_CALLBACK_TIMEOUT_SECONDS).toBe(31_536_000);
	});

	test('n8n 2.x (signed resume URLs): no resumer; 1.x: the last waiting item resumes', async () => {
		const signed = context({ inputs: 3 });
		await pause(signed, [{ json: { id: 'm-0' } }, { json: { id: 'm-1' } }, { json: complete('m-2') }]);
		expect(signed.state().resumer).toBeUndefined();
		const unsigned = context({ inputs: 3, resumeUrl: 'http://n8n.test/webhook-waiting/42' });
		await pause(unsigned, [{ json: { id: 'm-0' } }, { json: { id: 'm-1' } }, { json: complete('m-2') }]);
		expect(unsigned.state().resumer).toBe(1);
		const first = context({ inputs: 2, resumeUrl: 'http://n8n.test/webhook-waiting/42' });
		await pause(first, [{ json: { id: 'm-0' } }, { json: complete('m-1') }]);
		expect(first.state().resumer).toBe(0);
	});

	test("hints go to n8n's log with the node and execution", async () => {
		const c = context();
		await pause(c, [{ json: { id: 'm-0' } }, { json: { id: 'm-1' } }], ['hint one']);
		expect(c.warnings).toEqual([['hint one', { node: contentModerationNode.name, executionId: 'exec-9' }]]);
	});
});

describe('the parameters', () => {
	test('Wait Timeout: seconds, at least 1, shown in mode Wait for Callback; the mode option', () => {
		expect(waitCallbackTimeoutProperty).toMatchObject({
			name: 'waitTimeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 3600,
			displayOptions: { show: { mode: ['waitCallback'] } },
		});
		expect(waitCallbackModeOption('Queue the image')).toMatchObject({ value: 'waitCallback' });
		expect(noIdError(contentModerationNode, 4).context.itemIndex).toBe(4);
	});
});
