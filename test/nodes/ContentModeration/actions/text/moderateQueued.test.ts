/** Text > Moderate (via Queue), versions 1-2 (moderateQueued.ts): one POST per text, Submit Only, bad input, through n8n-core's engine against the mock and a scripted service. */
import { PROFANE_TEXT, REVIEW_TEXT, SAFE_TEXT } from '@dev/mock/fixtures';
import { nodeError, output, useMock } from '@test/helpers/nodeRun';
import { moderateQueuedText, requestLines as requestLinesOf } from '@test/helpers/parameters';

const mock = useMock({ processMs: 50 });

const moderate = moderateQueuedText;
const requestLines = () => requestLinesOf(mock.service);

describe('Text > Moderate: Wait for Result', () => {
	it('sends each POST once when the service throttles (429 before acting) and reads go through the same retries', async () => {
		mock.service.configure({ throttleRate: 0.34, retryAfterSeconds: 0 });
		try {
			const texts = [SAFE_TEXT, PROFANE_TEXT, REVIEW_TEXT];
			const run = await mock.run(moderate('={{ $json.text }}', { options: { actorId: '={{ $json.actor }}' } }),
				texts.map((text, i) => ({ json: { text, actor: `actor-${i}` } })));
			expect(run.status).toBe('success');
			expect(output(run).map((item) => item.json.content)).toEqual(texts);
			expect(mock.service.requests.some((r) => r.status === 429)).toBe(true);
			for (let i = 0; i < texts.length; i++) expect(mock.service.submissions.get(`actor:actor-${i}`)).toBe(1);
		} finally {
			mock.service.configure({ throttleRate: 0, retryAfterSeconds: 1 });
		}
	});
});


describe('Text > Moderate: Submit Only', () => {
	it('outputs what Queue > Add Item does and reads nothing', async () => {
		const run = await mock.run(moderate(SAFE_TEXT, { mode: 'submit' }));
		expect(output(run)[0].json).toEqual({ id: expect.any(String), status: 'processing', queueId: 'chat' });
		expect(requestLines()).toEqual(['POST /queues/chat 200']);
	});
});

describe('Text > Moderate: bad input', () => {
	it.each([
		['an empty text', { text: '  ' }, 'The Text is empty', 'Enter the text to moderate'],
		['a queue id under 3 characters', { queueId: 'ab' }, 'The Queue ID "ab" is too short', 'at least 3 characters'],
	])('fails the item on %s before anything is sent, naming the field and the fix', async (_case, bad, message, fix) => {
		const run = await mock.run(moderate(SAFE_TEXT, bad));
		const error = nodeError(run);
		expect(error.message).toContain(message);
		expect(error.description).toContain(fix);
		expect(mock.service.requests).toHaveLength(0);
	});

	it('under continueOnFail gives one error item paired to the bad input, the others moderated', async () => {
		const run = await mock.run(moderate('={{ $json.text }}'), [{ json: { text: SAFE_TEXT } }, { json: { text: '' } }, { json: { text: REVIEW_TEXT } }], {
			onError: 'continueRegularOutput',
		});
		const items = output(run);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json.error).toContain('The Text is empty');
		expect([items[0].json.content, items[2].json.content]).toEqual([SAFE_TEXT, REVIEW_TEXT]);
		expect(mock.service.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
	});
});
