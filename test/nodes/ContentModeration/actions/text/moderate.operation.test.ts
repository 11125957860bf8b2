/** Text > Moderate (via Queue), node versions 1-2, Route by Verdict, through n8n-core's engine against the mock. */
import type { IDataObject } from 'n8n-workflow';

import { PROFANE_TEXT, PROFANE_TEXT_FILTERED, REVIEW_TEXT, SAFE_TEXT } from '@dev/mock/fixtures';
import { nodeError, NODE_NAME, useMock } from '@test/helpers/nodeRun';
import { moderateQueuedText, requestLines as requestLinesOf } from '@test/helpers/parameters';

const mock = useMock({ processMs: 50 });

const moderate = moderateQueuedText;
const requestLines = () => requestLinesOf(mock.service);

describe('Text > Moderate: Route by Verdict', () => {
	it('sends safe, flagged and review texts to their outputs with the input kept', async () => {
		const texts = [SAFE_TEXT, PROFANE_TEXT, REVIEW_TEXT];
		const run = await mock.run(moderate('={{ $json.message }}', { routeByVerdict: true, reviewOutput: true }),
			texts.map((message, i) => ({ json: { message, user: i } })));
		expect(run.status).toBe('success');
		const [safe, flagged, review] = [0, 1, 2].map((index) => run.outputOf(NODE_NAME, index));
		expect(safe.map((item) => [item.json.user, item.json.verdict, item.pairedItem])).toEqual([[0, 'safe', { item: 0 }]]);
		expect(flagged.map((item) => [item.json.user, item.json.verdict])).toEqual([[1, 'flagged']]);
		expect(review.map((item) => [item.json.user, item.json.verdict])).toEqual([[2, 'review']]);
		expect((flagged[0].json.moderation as IDataObject).filteredContent).toBe(PROFANE_TEXT_FILTERED);
		expect(flagged[0].json.message).toBe(PROFANE_TEXT);
	});

	it('refuses Submit Only before anything is sent', async () => {
		const run = await mock.run(moderate(SAFE_TEXT, { mode: 'submit', routeByVerdict: true }));
		expect(nodeError(run).message).toContain('Mode "Submit Only"');
		expect(mock.service.requests).toHaveLength(0);
	});
});
