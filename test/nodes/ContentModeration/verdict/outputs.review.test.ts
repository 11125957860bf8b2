/**
 * Review repro: Route by Verdict judges any result with a boolean isSafe (verdict/outputs.ts routeResults:
 * `hasAnalysis`), not by THE completion rule (inbound/completion.ts). A Text > Get read of a moderation the
 * service has not finished (status "processing") lands on Safe; so does a result without riskScores while a
 * Risk Score Threshold is set ("judged on what is missing", which docs/callbacks.md says must not happen).
 */
import type { IDataObject } from 'n8n-workflow';

import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { NODE_NAME, SECRET_TOKEN } from '@test/helpers/nodeRun';
import { startScriptedServer } from '@test/helpers/scripted-server';

const ID = '3f1c2a9e-0000-4000-8000-000000000001';

async function textGetRouted(answer: IDataObject) {
	const server = await startScriptedServer(() => ({ status: 200, body: answer }));
	try {
		const run = await runWorkflow({
			nodes: [moderationNode({ resource: 'text', operation: 'get', textId: ID, routeByVerdict: true, riskThreshold: 70 })],
			credentials: { contentModerationApi: { baseUrl: server.url, accessToken: SECRET_TOKEN, callbackSecret: 'cb-secret/outputs-review-1' } },
		});
		return { run, safe: run.outputOf(NODE_NAME, 0) };
	} finally {
		await server.stop();
	}
}

describe('Route by Verdict on a read that is not a complete result', () => {
	it('Text > Get of a moderation still processing (isSafe true, status "processing") does not reach Safe', async () => {
		const { safe } = await textGetRouted({
			id: ID,
			isSafe: true,
			status: 'processing',
			suggestedActions: { reject: false, review: false },
			riskScores: { overall: 0 },
			nsfwCategories: [],
		});
		expect(safe.map((item) => item.json)).toEqual([]);
	});

	it('Text > Get of a result without riskScores, Risk Score Threshold 70: not judged on the missing score, so not Safe', async () => {
		const { safe } = await textGetRouted({ id: ID, isSafe: true, suggestedActions: { reject: false, review: false }, nsfwCategories: [] });
		expect(safe.map((item) => item.json)).toEqual([]);
	});
});
