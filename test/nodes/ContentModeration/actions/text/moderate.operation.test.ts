/** Text > Moderate (POST /text), through n8n-core's engine against the mock. */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { PROFANE_TEXT, PROFANE_TEXT_FILTERED, REVIEW_TEXT, SAFE_TEXT } from '@dev/mock/fixtures';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { expectNoToken, nodeError, NODE_NAME, output, SECRET_TOKEN, useMock } from '@test/helpers/nodeRun';
import { startScriptedServer } from '@test/helpers/scripted-server';

const mock = useMock({ processMs: 30 });
const CALLBACK_SECRET = 'cb-secret-31d9a7e4';

const moderate = (text: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'text',
	operation: 'moderate',
	text,
	...extra,
});

const lines = () => mock.service.requests.map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, '<id>')} ${r.status}`);
const posts = () => mock.service.requests.filter((r) => r.method === 'POST');

async function runNode(parameters: INodeParameters, items?: INodeExecutionData[], onError?: 'continueRegularOutput') {
	return await runWorkflow({
		nodes: [moderationNode(parameters, onError ? { onError } : {})],
		credentials: {
			contentModerationApi: { baseUrl: mock.service.url, accessToken: mock.service.token, callbackSecret: CALLBACK_SECRET },
		},
		items,
	});
}

describe('Text > Moderate, Immediate (the default)', () => {
	it('sends exactly one POST /text per item and no queue request; outputs the full result with its id', async () => {
		const texts = [SAFE_TEXT, PROFANE_TEXT, REVIEW_TEXT];
		const run = await runNode(moderate('={{ $json.text }}'), texts.map((text) => ({ json: { text } })));
		expect(run.status).toBe('success');
		expect(lines().sort()).toEqual(['POST /text 200', 'POST /text 200', 'POST /text 200']);
		expect(mock.service.requests.some((r) => r.path.startsWith('/queues'))).toBe(false);
		const out = output(run);
		expect(out.map((item) => [item.json.content, item.pairedItem])).toEqual(texts.map((text, item) => [text, { item }]));
		expect(out.map((item) => item.json.isSafe)).toEqual([true, false, true]);
		expect(out[1].json.filteredContent).toBe(PROFANE_TEXT_FILTERED);
		expect(out.every((item) => typeof item.json.id === 'string')).toBe(true);
		expect(posts().map((r) => r.body)).toEqual(expect.arrayContaining(texts.map((text) => ({ text }))));
	});

	it('sends Banned Words as options.bannedWords (a list), Actor ID, and the Metadata object under meta and metadata', async () => {
		const run = await runNode(
			moderate('My spoiler: the butler did it', {
				options: { bannedWords: ' spoiler, butler ,,spoiler', actorId: 'user-9', meta: '{"postId": "p-17"}' },
			}),
		);
		expect(run.status).toBe('success');
		expect(posts()).toHaveLength(1);
		expect(posts()[0].body).toEqual({
			text: 'My spoiler: the butler did it',
			options: { meta: { postId: 'p-17' }, metadata: { postId: 'p-17' }, actorId: 'user-9', bannedWords: ['spoiler', 'butler'] },
		});
		const [item] = output(run);
		expect(item.json.filteredContent).toBe('My *******: the ****** did it');
		expect(item.json.isSafe).toBe(false);
		expect(item.json.meta).toEqual({ postId: 'p-17' });
	});

	it.each([
		['one per line', 'spoiler\nleak'],
		['one per line with Windows line breaks and commas mixed', 'spoiler,\r\n leak\r\n'],
		['a JSON list typed in the field', '["spoiler", "leak"]'],
	])('Banned Words %s: each word is banned, masked and flags the text', async (_case, bannedWords) => {
		const run = await runNode(moderate('No spoiler and no leak here', { options: { bannedWords } }));
		expect(run.status).toBe('success');
		expect((posts()[0].body as IDataObject).options).toEqual({ bannedWords: ['spoiler', 'leak'] });
		const [item] = output(run);
		expect(item.json.filteredContent).toBe('No ******* and no **** here');
		expect(item.json.isSafe).toBe(false);
	});

	it('a text starting with "[" that is not a JSON list is split like any other', async () => {
		await runNode(moderate(SAFE_TEXT, { options: { bannedWords: '[draft], leak' } }));
		expect((posts()[0].body as IDataObject).options).toEqual({ bannedWords: ['[draft]', 'leak'] });
	});

	it('takes Banned Words as a list from an expression too', async () => {
		const run = await runNode(moderate('a spoiler here', { options: { bannedWords: '={{ $json.words }}' } }), [
			{ json: { words: ['spoiler', 'other'] } },
		]);
		expect(run.status).toBe('success');
		expect((posts()[0].body as IDataObject).options).toEqual({ bannedWords: ['spoiler', 'other'] });
	});

	it.each(['meta', 'metadata'] as const)('the metadata comes back when the service reads only "%s"', async (metadataKey) => {
		mock.service.configure({ metadataKey });
		try {
			const run = await runNode(moderate(SAFE_TEXT, { options: { meta: '{"orderId": "A-17"}' } }));
			expect(run.status).toBe('success');
			expect(output(run)[0].json.meta).toEqual({ orderId: 'A-17' });
		} finally {
			mock.service.configure({ metadataKey: 'both' });
		}
	});

	it('routes by verdict: Safe, Flagged and Review, the input kept', async () => {
		const texts = [SAFE_TEXT, PROFANE_TEXT, REVIEW_TEXT];
		const run = await runNode(
			moderate('={{ $json.message }}', { routeByVerdict: true, reviewOutput: true }),
			texts.map((message, user) => ({ json: { message, user } })),
		);
		expect(run.status).toBe('success');
		const [safe, flagged, review] = [0, 1, 2].map((index) => run.outputOf(NODE_NAME, index));
		expect(safe.map((item) => [item.json.user, item.json.verdict])).toEqual([[0, 'safe']]);
		expect(flagged.map((item) => [item.json.user, item.json.verdict])).toEqual([[1, 'flagged']]);
		expect(review.map((item) => [item.json.user, item.json.verdict])).toEqual([[2, 'review']]);
		expect(posts()).toHaveLength(3);
	});
});

describe('Text > Moderate, Deferred', () => {
	it('outputs only the id; the Callback URL carries the credential secret; the result is read with Text > Get', async () => {
		const run = await runNode(moderate(SAFE_TEXT, { mode: 'deferred', options: { callbackUrl: 'http://127.0.0.1:9/webhook/x/callback' } }));
		expect(run.status).toBe('success');
		const [item] = output(run);
		expect(Object.keys(item.json)).toEqual(['id']);
		const options = (posts()[0].body as IDataObject).options as IDataObject;
		expect(options.defer).toBe(true);
		expect(options.callbackUrl).toBe(`http://127.0.0.1:9/webhook/x/callback?token=${CALLBACK_SECRET}`);
		// The secret reached the service in the URL, never an output.
		expect(JSON.stringify(run.runData)).not.toContain(CALLBACK_SECRET);
		expectNoToken(run, SECRET_TOKEN);

		await mock.service.whenIdle(5_000);
		const read = await runNode({ resource: 'text', operation: 'get', textId: String(item.json.id) });
		expect(output(read)[0].json).toMatchObject({ id: item.json.id, isSafe: true, content: SAFE_TEXT });
	});

	it('refuses Route by Verdict before anything is sent, naming Mode', async () => {
		const run = await runNode(moderate(SAFE_TEXT, { mode: 'deferred', routeByVerdict: true }));
		expect(nodeError(run).message).toContain('Mode "Deferred"');
		expect(mock.service.requests).toHaveLength(0);
	});
});

describe('Text > Moderate, bad input and failures', () => {
	it.each([
		['Metadata that is not JSON', { meta: '{oops' }, 'The Metadata (JSON) is not valid JSON'],
		['Metadata that is not an object', { meta: '[1, 2]' }, 'The Metadata (JSON) must be a JSON object, not an array'],
		['Banned Words of another type', { bannedWords: '={{ 42 }}' }, 'The Banned Words must be a text of words separated by commas or line breaks, or a list of words'],
		['Banned Words listing a non-word', { bannedWords: '={{ ["spoiler", { a: 1 }] }}' }, 'The Banned Words list holds something that is not a word'],
	])('%s: the item fails naming the field, nothing is sent', async (_case, options, message) => {
		const run = await runNode(moderate(SAFE_TEXT, { options }));
		const error = nodeError(run);
		expect(error.message).toContain(message);
		expect(error.description).toMatch(/\S/);
		expect(error.context?.itemIndex).toBe(0);
		expect(mock.service.requests).toHaveLength(0);
	});

	it('an empty text fails before anything is sent', async () => {
		const run = await runNode(moderate('  '));
		expect(nodeError(run).message).toContain('The Text is empty');
		expect(mock.service.requests).toHaveLength(0);
	});

	it('continueOnFail: one error item paired to the bad input, the others moderated once each', async () => {
		const run = await runNode(
			moderate(SAFE_TEXT, { options: { meta: '={{ $json.meta }}' } }),
			[{ json: { meta: '{"a":1}' } }, { json: { meta: 'not json' } }, { json: { meta: '' } }],
			'continueRegularOutput',
		);
		expect(run.status).toBe('success');
		const out = output(run);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[1].json.error).toContain('Metadata (JSON)');
		expect([out[0].json.isSafe, out[2].json.isSafe]).toEqual([true, true]);
		expect(posts()).toHaveLength(2);
	});

	it('a POST the service may have acted on is never sent twice (500), and the error names the status without a secret', async () => {
		const server = await startScriptedServer(() => ({ status: 500, body: { error: { status: 500, code: 'internal', message: 'boom' } } }));
		try {
			const run = await runWorkflow({
				nodes: [moderationNode(moderate(SAFE_TEXT, { options: { meta: '{"a": 1}' } }))],
				credentials: { contentModerationApi: { baseUrl: server.url, accessToken: SECRET_TOKEN, callbackSecret: CALLBACK_SECRET } },
			});
			const error = nodeError(run);
			expect(error.httpCode).toBe('500');
			expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
			expectNoToken(run, SECRET_TOKEN);
			expectNoToken(run, CALLBACK_SECRET);
		} finally {
			await server.stop();
		}
	});

	it('throttled (429, before the service acts): each text is moderated once', async () => {
		mock.service.configure({ throttleRate: 0.34, retryAfterSeconds: 0 });
		try {
			const texts = [SAFE_TEXT, PROFANE_TEXT, REVIEW_TEXT];
			const run = await runNode(
				moderate('={{ $json.text }}', { options: { actorId: '={{ $json.actor }}' } }),
				texts.map((text, i) => ({ json: { text, actor: `actor-${i}` } })),
			);
			expect(run.status).toBe('success');
			expect(mock.service.requests.some((r) => r.status === 429)).toBe(true);
			for (let i = 0; i < texts.length; i++) expect(mock.service.submissions.get(`actor:actor-${i}`)).toBe(1);
		} finally {
			mock.service.configure({ throttleRate: 0, retryAfterSeconds: 1 });
		}
	});
});
