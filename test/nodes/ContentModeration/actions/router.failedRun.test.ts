/**
 * A run that fails while its requests are in flight, beside another execution, counted at the mock
 * service (requests in flight are counted by the server, a dropped connection ends one): the failed run's
 * requests are aborted for real and keep their places until they have ended, so the shared limit is
 * never exceeded, and the run ends without waiting for answers it would throw away.
 */
import { startMockService, type MockService } from '@dev/mock/server';
import { waitFor } from '@dev/wait';
import { INITIAL_LIMIT } from '@package/nodes/ContentModeration/limiter/adaptiveLimit';
import { limiters, serviceKey } from '@package/nodes/ContentModeration/limiter/registry';
import { moderationNode, runWorkflow } from '@test/helpers/engine';
import { resetProcessState } from '@package/nodes/ContentModeration/helpers/processState';

// Immediate texts take this long at the service; a body over MAX_BODY is refused at once (413).
const WORK_MS = 4000;
const MAX_BODY = 16 * 1024;

let mock: MockService;
beforeAll(async () => {
	mock = await startMockService({ textModerateMs: WORK_MS, maxBodyBytes: MAX_BODY });
});
afterAll(async () => {
	await mock?.stop();
});

const credentials = () => ({ contentModerationApi: { baseUrl: mock.url, accessToken: mock.token } });
const moderateTexts = (texts: string[]) =>
	runWorkflow({
		nodes: [moderationNode({ resource: 'text', operation: 'moderate', text: '={{ $json.text }}' })],
		credentials: credentials(),
		items: texts.map((text) => ({ json: { text } })),
	});

describe('a run that fails while its requests are in flight', () => {
	it('aborts them, keeps the shared limit until they have ended, and ends without waiting for their answers', async () => {
		resetProcessState();
		mock.reset();
		// The first round is items 0-19; item 19 is refused at once, the other 19 are worked on for 4 s.
		const texts = Array.from({ length: 30 }, (_, i) => (i === 19 ? 'x'.repeat(2 * MAX_BODY) : `failing run, text ${i}`));
		let answeredWhenItEnded = -1;
		const failing = moderateTexts(texts).then((run) => {
			answeredWhenItEnded = mock.requests.filter((r) => r.status === 200).length;
			return run;
		});
		await waitFor('the refusal of item 19', () => (mock.requests.some((r) => r.status === 413) || undefined), 20_000, 5);
		// Another execution of the same service, while the failed run's 19 requests would still be worked on.
		const beside = moderateTexts(Array.from({ length: 20 }, (_, i) => `run beside, text ${i}`));
		const [failed, after] = await Promise.all([failing, beside]);

		expect(failed.error?.message).toContain('413');
		expect(after.error).toBeUndefined();
		expect(after.outputOf('Content Moderation')).toHaveLength(20);
		// The failed run ended before the service answered any of the requests it had sent.
		expect(answeredWhenItEnded).toBe(0);
		// Nothing of the failed run's waiting items was sent; the service never saw more than the limit.
		const sent = mock.requests.filter((r) => String((r.body as { text?: string } | undefined)?.text).startsWith('failing run'));
		expect(sent.length).toBeLessThanOrEqual(INITIAL_LIMIT - 1);
		expect(mock.traffic.peakInFlight).toBeLessThanOrEqual(INITIAL_LIMIT);
		expect(limiters.limiterFor(serviceKey(mock.url, mock.token)).snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
	}, 60_000);
});
