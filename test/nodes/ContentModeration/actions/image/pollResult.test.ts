/**
 * Unit tests of the action node's helpers: input decoding/checks, error items, the polling rule.
 */
import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

import { isResultReady } from '../../../../../nodes/ContentModeration/actions/image/pollResult';
import { asNodeError, errorItem } from '../../../../../nodes/ContentModeration/helpers/errorItems';
import {
	checkHttpUrl,
	checkId,
	checkNotEmpty,
	InputProblem,
	isProblem,
	normalizeBase64,
	parseMetaJson,
} from '../../../../../nodes/ContentModeration/validation/checks';
import { makePng } from '../../../../../dev/mock/png';

const node: INode = {
	id: '1',
	name: 'Content Moderation',
	type: 'n8n-nodes-content-moderation.contentModeration',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function problem(value: unknown): InputProblem {
	if (!isProblem(value)) throw new Error(`expected a problem, got ${JSON.stringify(value)}`);
	return value;
}

describe('isResultReady (deferredWait polling rule)', () => {
	it('only a body with a boolean isSafe is a result; 202 never is', () => {
		expect(isResultReady(200, { id: 'x', isSafe: false })).toBe(true);
		expect(isResultReady(200, { id: 'x', status: 'processing' })).toBe(false);
		expect(isResultReady(200, { isSafe: 'true' })).toBe(false);
		expect(isResultReady(202, { id: 'x', isSafe: true })).toBe(false);
		expect(isResultReady(200, null)).toBe(false);
		expect(isResultReady(200, '')).toBe(false);
	});
});
