/** Wait for Callback's execute(): once all are submitted, pause until the callbacks resume it or the timeout. */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	NodeOperationError,
} from 'n8n-workflow';

import { errorItem, operationError } from '../../helpers/errorItems';
import { clampInteger } from '../../helpers/numbers';
import { WAIT_CALLBACK_MODE, WAIT_CALLBACK_OUTPUT } from '../../verdict/description';
import { firstPairedIndex, isErrorItem, readRoutingPlan, type VerdictFacts } from '../../verdict/outputs';
import { isCompleteResult } from '../../verdict/rules';
import { runKey, waitMemory } from './memory';
import { finalOutputs, type ItemState } from './state';
import { hasResumeToken, resumeUrl, runState } from './urls';

export const DEFAULT_CALLBACK_TIMEOUT_SECONDS = 3600;
/** n8n keeps waiting executions in its database; a year bounds the date arithmetic, nothing more. */
export const MAX_CALLBACK_TIMEOUT_SECONDS = 365 * 24 * 3600;

/** The Mode option of Image > Moderate and Text > Moderate; `submit` says what is sent ("Queue the image"). */
export function waitCallbackModeOption(submit: string): INodePropertyOptions {
	return {
		name: 'Wait for Callback',
		value: WAIT_CALLBACK_MODE,
		description: `${submit} with this execution's resume URL as callback and pause the execution in n8n's database. It continues when the service has called back for every item (or Wait Timeout passes).`,
	};
}

export const waitCallbackTimeoutProperty: INodeProperties = {
	displayName: 'Wait Timeout (Seconds)',
	name: 'waitTimeout',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_CALLBACK_TIMEOUT_SECONDS,
	description:
		'How long the execution waits for the callbacks. When it passes, n8n continues without running this node again: every input item goes unchanged to the first output (Timed Out with Route by Verdict).',
	displayOptions: { show: { mode: [WAIT_CALLBACK_MODE] } },
};

export function noIdError(node: INode, itemIndex: number): NodeOperationError {
	const description = 'Use Mode "Immediate" instead, or check that the service supports deferred moderation.';
	return operationError(node, itemIndex, 'The service did not return a moderation ID to wait for', description);
}

/** What each submission answered: a moderation to wait for, a complete result already there (inbound/completion.ts), or a failure. */
function itemStates(ctx: IExecuteFunctions, results: INodeExecutionData[]): ItemState[] {
	const states: ItemState[] = ctx.getInputData().map(() => ({ error: { error: 'No result' } }));
	results.forEach((item, position) => {
		const itemIndex = firstPairedIndex(item) ?? position;
		const json = item.json as IDataObject;
		if (isErrorItem(item)) {
			states[itemIndex] = { error: json };
		} else if (isCompleteResult(json)) {
			states[itemIndex] = { result: json };
		} else if (typeof json.id === 'string' && json.id !== '') {
			states[itemIndex] = { id: json.id };
		} else {
			const error = noIdError(ctx.getNode(), itemIndex);
			if (!ctx.continueOnFail()) throw error;
			states[itemIndex] = { error: errorItem(error, itemIndex).json };
		}
	});
	return states;
}

export async function pauseForCallbacks(
	this: IExecuteFunctions,
	facts: VerdictFacts,
	results: INodeExecutionData[],
	routing: boolean,
	hints: string[],
): Promise<INodeExecutionData[][]> {
	const state = runState(this);
	state.items = itemStates(this, results);
	state.continueOnFail = this.continueOnFail();
	state.routing = routing ? readRoutingPlan.call(this, WAIT_CALLBACK_OUTPUT) : undefined;

	// Nothing to wait for (every answer already final, or no input): output now.
	if (!state.items.some((item) => 'id' in item)) {
		return finalOutputs(this.getNode(), facts, state, () => undefined, this.getInputData());
	}

	// n8n 2.x claims a waiting execution atomically (a second resume gets ExecutionAlreadyResumingError).
	// n8n 1.x does not: there one callback URL, the last waiting item's, is the only one that resumes.
	if (!hasResumeToken(resumeUrl(this))) {
		state.resumer = state.items.reduce((last, item, itemIndex) => ('id' in item ? itemIndex : last), -1);
	}

	const timeout = this.getNodeParameter('waitTimeout', 0, DEFAULT_CALLBACK_TIMEOUT_SECONDS);
	const seconds = clampInteger(timeout, 1, MAX_CALLBACK_TIMEOUT_SECONDS, DEFAULT_CALLBACK_TIMEOUT_SECONDS);
	const deadline = new Date(Date.now() + seconds * 1000);
	state.deadline = deadline.toISOString();
	// Callbacks reaching this process from now on are remembered here (memory.ts).
	waitMemory.watch(runKey(this.getExecutionId(), this.getNode().name, state.deadline), state.deadline);
	// n8n drops the waiting run, hints and all, when it resumes or times out: n8n's log keeps them.
	for (const hint of hints) this.logger.warn(hint, { node: this.getNode().name, executionId: this.getExecutionId() });
	await this.putExecutionToWait(deadline);
	// n8n drops what a node returns before it waits; the Wait node returns its input the same way.
	return [this.getInputData()];
}
