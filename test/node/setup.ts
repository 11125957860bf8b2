/** Shared setup of the action-node tests: one mock service per test file, runs with its credential. */
import type { INodeExecutionData } from 'n8n-workflow';

import { dumpRun, type WorkflowRun } from '../helpers/engine';

export { SECRET_TOKEN, useMock } from '../helpers/mock';

export const NODE_NAME = 'Content Moderation';

/** The node's output items (first output). */
export function output(run: WorkflowRun): INodeExecutionData[] {
	return run.outputOf(NODE_NAME);
}

/** Asserts the token is nowhere in the run: outputs, errors, descriptions, stacks. */
export function expectNoToken(run: WorkflowRun, token: string): void {
	expect(token.length).toBeGreaterThan(3);
	expect(dumpRun(run)).not.toContain(token);
}

/** The node error the run stopped with. */
export function nodeError(run: WorkflowRun) {
	const error = run.errorOf(NODE_NAME) as
		| (Error & { description?: string; httpCode?: string; context?: { itemIndex?: number } })
		| undefined;
	if (!error) throw new Error(`expected the node to fail; status ${run.status}`);
	return error;
}
