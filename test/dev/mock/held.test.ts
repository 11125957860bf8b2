/** A test's hold on the mock's results, and waiting for some callbacks while others still retry. */
import { call } from '../../../dev/mock/client';
import { mockImageUrl, SAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { useMock } from '../../helpers/mock';
import { startReceiver } from './mock-api';

const mock = useMock({ processMs: 150, callbackRetries: 3, callbackBackoffMs: 50, token: 'test-token' });

describe('held results', () => {
	it('stay processing with no callback until released, then complete and call back', async () => {
		const receiver = await startReceiver();
		mock.service.configure({ processMs: 0 });
		mock.service.holdResults();
		try {
			const submitted = await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url } } });
			const id = submitted.body.id;
			// A timer set after the job's (0 ms) fires after it: the job's time is up by then.
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect((await call(mock.service.url, 'GET', `/image/${id}`)).body).toEqual({ id, status: 'processing' });
			expect(receiver.deliveries).toHaveLength(0);
			mock.service.releaseResults();
			await mock.service.whenIdle(30_000);
			expect(receiver.deliveries.map((d) => d.body.data.id)).toEqual([id]);
			expect((await call(mock.service.url, 'GET', `/image/${id}`)).body).toMatchObject({ isSafe: true });
		} finally {
			mock.service.releaseResults();
			mock.service.configure({ processMs: 150 });
			await receiver.stop();
		}
	});

	it('of one test only: held through holdResults/releaseResults of others, not counted by whenIdle, then released', async () => {
		const receiver = await startReceiver();
		mock.service.configure({ processMs: 0 });
		const mine = mockImageUrl({}, 'held-by-one-test');
		const release = mock.service.holdResultsOf((subject) => subject === mine);
		try {
			const held = (await call(mock.service.url, 'POST', '/image', { json: { image: mine, options: { callbackUrl: receiver.url } } })).body.id;
			// Another test's hold and release meanwhile.
			mock.service.holdResults();
			const other = (await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: receiver.url } } })).body.id;
			await new Promise((resolve) => setTimeout(resolve, 50));
			mock.service.releaseResults();
			await mock.service.whenIdle(30_000);
			expect(receiver.deliveries.map((d) => d.body.data.id)).toEqual([other]);
			expect((await call(mock.service.url, 'GET', `/image/${held}`)).body).toEqual({ id: held, status: 'processing' });
			release();
			await mock.service.whenIdle(30_000);
			expect(receiver.deliveries.map((d) => d.body.data.id)).toEqual([other, held]);
		} finally {
			release();
			mock.service.releaseResults();
			mock.service.configure({ processMs: 150 });
			await receiver.stop();
		}
	});
});

describe('whenDelivered', () => {
	it('waits for the callbacks of the ids given, not for another delivery still retrying', async () => {
		// One receiver refuses everything (the other moderation is retried with a long backoff), one accepts.
		const refusing = await startReceiver(() => 409);
		const accepting = await startReceiver();
		mock.service.configure({ processMs: 0, callbackRetries: 3, callbackBackoffMs: 60_000 });
		try {
			const retried = (await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: refusing.url } } })).body.id;
			await expect(mock.service.whenDelivered([retried], 300)).rejects.toThrow(/1 moderations/);
			const mine = (await call(mock.service.url, 'POST', '/image', { json: { image: SAFE_IMAGE_URL, options: { callbackUrl: accepting.url } } })).body.id;
			await mock.service.whenDelivered([mine], 30_000);
			expect(accepting.deliveries.map((d) => d.body.data.id)).toEqual([mine]);
			expect(refusing.deliveries).toHaveLength(1);
			await expect(mock.service.whenIdle(100)).rejects.toThrow(/idle/);
		} finally {
			mock.service.configure({ processMs: 150, callbackRetries: 3, callbackBackoffMs: 50 });
			await refusing.stop();
			await accepting.stop();
		}
	});
});
