/** The run's warnings under the node's output (n8n's execution hints), as n8n-core's engine records them. */
import type { INodeParameters, NodeExecutionHint } from 'n8n-workflow';

import { SAFE_IMAGE_URL, SAFE_TEXT } from '@dev/mock/fixtures';
import { isLocalHost } from '@package/nodes/ContentModeration/actions/hints';
import { limiters, serviceKey } from '@package/nodes/ContentModeration/limiter/registry';
import { moderationNode, runWorkflow, type WorkflowRun } from '@test/helpers/engine';
import { NODE_NAME, useMock } from '@test/helpers/nodeRun';

const mock = useMock({ processMs: 20 });
/** A public host that resolves nowhere (.invalid): the request fails at once, nothing leaves this machine. */
const PUBLIC_BASE_URL = 'https://moderation.example.invalid';

const hintsOf = (run: WorkflowRun): NodeExecutionHint[] => run.runData[NODE_NAME]?.[0]?.hints ?? [];
const messages = (run: WorkflowRun) => hintsOf(run).map((hint) => hint.message);

async function run(parameters: INodeParameters, baseUrl = mock.service.url, items = [{ json: {} }]) {
	return await runWorkflow({
		nodes: [moderationNode(parameters, { onError: 'continueRegularOutput' })],
		credentials: { contentModerationApi: { baseUrl, accessToken: mock.service.token, callbackSecret: 'cb-secret-5e1d2c3b4a59' } },
		items,
	});
}

describe('isLocalHost: what a service outside cannot call', () => {
	it.each([
		'localhost', 'LOCALHOST', 'n8n.localhost', 'printer.local', 'printer.local.', '127.0.0.1', '127.8.9.1', '10.0.0.5',
		'172.16.0.1', '172.20.0.1', '172.31.255.254', '192.168.1.20', '100.80.0.1', '169.254.169.254', '0.0.0.0', '[::1]', '::1', '[fd12:3456::1]', '[fc00::1]', '[fe80::1]',
	])('%s is local', (host) => expect(isLocalHost(host)).toBe(true));

	it.each([
		// URL's own spelling of the hosts of callback URLs a user would write.
		...['[::ffff:127.0.0.1]', '[::ffff:10.1.2.3]', '100.64.0.1', '100.101.102.103', '100.127.255.254', 'n8n:5678'],
		...['n8n.internal', 'host.docker.internal', 'nas.lan', 'n8n.home.arpa', 'N8N.Home.Arpa.'],
	].map((host) => new URL(`http://${host}/webhook`).hostname))('%s (a mapped, CGNAT, single-label or private-suffix host) is local', (host) => expect(isLocalHost(host)).toBe(true));

	it.each(['n8n.example.com', new URL('http://[::ffff:8.8.8.8]').hostname, '100.63.255.255', '100.128.0.1', 'internal.example.com', 'lan.example.com', 'arpa.example.com', '172.15.0.1', '172.32.0.1', '192.169.1.1', '11.0.0.1', '8.8.8.8', '[2001:db8::1]', 'fd.example.com', 'local.example.com', 'fe80.example.com'])(
		'%s is public',
		(host) => expect(isLocalHost(host)).toBe(false),
	);

	// Public hosts that only look local in part: a private suffix, a private first octet, fd or an IPv4-mapped tail mid-address.
	it.each(['n8n.local.example.com', 'nas.lan.example.com', '10.example.com', '192.168.example.com', '[2001:db8::fd12:1]', '[1::ffff:5:1]'].map((host) => new URL(`http://${host}/webhook`).hostname))(
		'%s is public',
		(host) => expect(isLocalHost(host)).toBe(false),
	);
});

describe('a callback URL the service cannot reach', () => {
	const deferredText = (callbackUrl: string): INodeParameters => ({
		resource: 'text',
		operation: 'moderate',
		text: SAFE_TEXT,
		mode: 'deferred',
		options: { callbackUrl, maxRetries: 0 },
	});

	it('Text > Moderate, Deferred, a localhost Callback URL and a public Base URL: a warning naming WEBHOOK_URL, nothing refused', async () => {
		const result = await run(deferredText('http://localhost:5678/webhook/abc/callback'), PUBLIC_BASE_URL);
		const [hint, ...others] = hintsOf(result);
		expect(others).toEqual([]);
		expect(hint).toEqual({ message: expect.stringContaining('The Callback URL points at localhost'), type: 'warning', location: 'outputPane' });
		expect(hint.message).toContain('moderation.example.invalid cannot reach');
		expect(hint.message).toContain("Set n8n's WEBHOOK_URL");
		// The item failed for its own reason (the host resolves nowhere), not for the URL.
		expect(String(result.outputOf(NODE_NAME)[0].json.error)).toContain('Could not reach the Content Moderation Service');
	});

	it('Image > Moderate, Deferred: a private address warns too, a public one does not', async () => {
		const image = (callbackUrl: string) => ({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, mode: 'deferred', options: { callbackUrl, maxRetries: 0 } });
		expect(messages(await run(image('http://192.168.1.20:5678/webhook/abc/callback'), PUBLIC_BASE_URL))).toEqual([
			expect.stringContaining('The Callback URL points at 192.168.1.20'),
		]);
		expect(messages(await run(image('https://n8n.example.com/webhook/abc/callback'), PUBLIC_BASE_URL))).toEqual([]);
	});

	it("Wait for Callback's resume URL on n8n's local default (no WEBHOOK_URL) with a public Base URL", async () => {
		const waitText: INodeParameters = { resource: 'text', operation: 'moderate', text: SAFE_TEXT, mode: 'waitCallback', options: { maxRetries: 0 } };
		expect(messages(await run(waitText, PUBLIC_BASE_URL))).toEqual([expect.stringContaining("Wait for Callback's resume URL points at 127.0.0.1")]);
	});

	it('no warning when the Base URL is itself local (the mock on 127.0.0.1): the service can call back', async () => {
		const result = await run(deferredText('http://localhost:5678/webhook/abc/callback'));
		expect(result.status).toBe('success');
		expect(result.outputOf(NODE_NAME)[0].json.id).toEqual(expect.any(String));
		expect(hintsOf(result)).toEqual([]);
	});
});

describe('a run whose requests were refused and sent again', () => {
	afterEach(() => mock.service.configure({ throttleRate: 0 }));

	it('says how many and the sends at a time the node settled at; a run without refusals says nothing', async () => {
		const items = Array.from({ length: 6 }, (_, index) => ({ json: { index } }));
		const image = { resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL };
		expect(hintsOf(await run(image, mock.service.url, items))).toEqual([]);

		mock.service.configure({ throttleRate: 0.5, retryAfterSeconds: 0 });
		const result = await run(image, mock.service.url, items);
		expect(result.outputOf(NODE_NAME).map((item) => item.json.isSafe)).toEqual(items.map(() => true));
		const refused = mock.service.requests.filter((request) => request.status === 429).length;
		expect(refused).toBeGreaterThan(0);
		const limit = limiters.limiterFor(serviceKey(mock.service.url, mock.service.token)).limit;
		expect(messages(result)).toEqual([
			`${refused} requests were refused by the service (429 or 503) and sent again; the node settled at ${limit} at a time. Lower Max Concurrency (or set Fixed Concurrency) if your plan allows fewer.`,
		]);
	});

	it('a run that fails (On Error: Stop) keeps no hints: its error says how many were refused and sent again', async () => {
		mock.service.configure({ throttleRate: 1, retryAfterSeconds: 0 });
		const result = await runWorkflow({
			nodes: [moderationNode({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, options: { maxRetries: 1 } })],
			credentials: { contentModerationApi: { baseUrl: mock.service.url, accessToken: mock.service.token } },
			items: [{ json: {} }],
		});
		expect(result.status).toBe('error');
		expect(hintsOf(result)).toEqual([]);
		expect(mock.service.requests.filter((request) => request.status === 429)).toHaveLength(2);
		expect(result.errorOf(NODE_NAME)?.description).toMatch(
			/^.*Gave up after 2 tries.* 1 request was refused by the service \(429 or 503\) and sent again; the node settled at \d+ at a time\./,
		);
	});
});

describe('Route by Verdict without a threshold', () => {
	const routed = (extra: INodeParameters) => ({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL, routeByVerdict: true, ...extra });
	const NO_THRESHOLD = "Route by Verdict has no threshold set: only the service's isSafe and suggestedActions.reject decide what is Flagged.";

	it('warns that only isSafe and suggestedActions.reject decide', async () => {
		expect(messages(await run(routed({})))).toEqual([expect.stringContaining(NO_THRESHOLD)]);
	});

	it.each([
		['a Risk Score Threshold', { riskThreshold: 70 }],
		['a Category Threshold only', { categoryThresholds: { thresholds: [{ category: 'violence_gore', threshold: 40 }] } }],
	])('says nothing with %s', async (_case, extra) => {
		expect(messages(await run(routed(extra)))).toEqual([]);
	});

	it('still warns when every Category Threshold is 0: a 0 turns its rule off', async () => {
		const off = { categoryThresholds: { thresholds: [{ category: 'violence_gore', threshold: 0 }] } };
		expect(messages(await run(routed(off)))).toEqual([expect.stringContaining(NO_THRESHOLD)]);
	});

	it('says nothing without Route by Verdict', async () => {
		expect(messages(await run({ resource: 'image', operation: 'moderate', imageUrl: SAFE_IMAGE_URL }))).toEqual([]);
	});
});
