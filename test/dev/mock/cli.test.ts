import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';

import { call } from '../../../dev/mock/client';
import { SAFE_IMAGE_URL } from '../../../dev/mock/fixtures';
import { spawnMockCli, type MockCliProcess } from '../../../dev/mock/process';
import { freePort } from '../../../dev/ports';
import { waitFor } from '../../../dev/wait';
import { startReceiver } from './mock-api';

const ROOT = resolve(__dirname, '../../..');
const running: MockCliProcess[] = [];

/** Whether a process group still has a member. */
function groupAlive(pid: number): boolean {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
}

afterAll(async () => {
	for (const cli of running) await cli.stop('SIGKILL').catch(() => undefined);
});

describe('mock CLI', () => {
	it.each(['SIGTERM', 'SIGINT'] as const)('prints one ready line, serves requests and exits 0 on %s', async (signal) => {
		const port = await freePort();
		const cli = await spawnMockCli(['--port', String(port), '--token', 'cli-token', '--latency-ms', '5', '--process-ms', '50', '--text-moderate-ms', '1500']);
		running.push(cli);
		expect(cli.stdout()).toBe(`Content Moderation mock service listening on http://127.0.0.1:${port} (token: cli-token)\n`);
		expect(cli.url).toBe(`http://127.0.0.1:${port}`);

		const ok = await call(cli.url, 'POST', '/image', { token: 'cli-token', json: { image: SAFE_IMAGE_URL } });
		expect(ok.status).toBe(200);
		expect(ok.body.isSafe).toBe(true);
		expect((await call(cli.url, 'GET', '/image/00000000-0000-4000-8000-000000000000')).status).toBe(401);
		// The text's working time is not the image's: far apart, so that a loaded machine cannot blur them.
		expect(ok.durationMs).toBeGreaterThanOrEqual(5);
		expect(ok.durationMs).toBeLessThan(1500);
		const text = await call(cli.url, 'POST', '/text', { token: 'cli-token', json: { text: 'hello there' } });
		expect(text.status).toBe(200);
		expect(text.durationMs).toBeGreaterThanOrEqual(1500);

		expect(await cli.stop(signal)).toBe(0);
		expect(cli.stdout().split('\n').filter(Boolean)).toHaveLength(1);
		// tsx's esbuild helper may outlive the CLI by a moment; it must be gone soon after.
		await waitFor('the process group to exit', () => (groupAlive(cli.child.pid!) ? undefined : true), 30_000, 100);
		await expect(call(cli.url, 'GET', '/image/00000000-0000-4000-8000-000000000000', { token: 'cli-token' })).rejects.toThrow();
	});

	it('takes the account webhook URL and the metadata key from --webhook-url and --metadata-key', async () => {
		const receiver = await startReceiver();
		try {
			const cli = await spawnMockCli(['--port', '0', '--process-ms', '20', '--webhook-url', receiver.url, '--metadata-key', 'metadata']);
			running.push(cli);
			const token = 'test-token';
			expect((await call(cli.url, 'GET', '/__mock/settings', { token })).body).toEqual({ webhookUrl: receiver.url, metadataKey: 'metadata' });
			const added = await call(cli.url, 'POST', '/queues/reviews', {
				token,
				json: { type: 'text', content: 'hello there', meta: { ignored: true }, metadata: { post: 2 } },
			});
			const item = await waitFor('the item to be pending', async () => {
				const read = await call(cli.url, 'GET', `/queues/reviews/items/${added.body.id}`, { token });
				return read.body.status === 'pending' ? read.body : undefined;
			}, 5_000, 20);
			expect(item.meta).toEqual({ post: 2 });
			const decided = await call(cli.url, 'POST', `/__mock/queues/reviews/items/${item.id}/decision`, { token, json: { decision: 'accepted' } });
			expect(decided.status).toBe(200);
			await waitFor('the announcement', () => (receiver.deliveries.length ? true : undefined), 5_000, 20);
			expect(receiver.deliveries[0].body).toMatchObject({ event: 'queue.review.completed', data: { id: item.id, status: 'accepted' } });
			expect(await cli.stop()).toBe(0);
		} finally {
			await receiver.stop();
		}
		const error: Error = await spawnMockCli(['--metadata-key', 'data']).then(
			() => new Error('started'),
			(e: Error) => e,
		);
		expect(error.message).toContain('exited with 1');
		expect(error.message).toContain('metadataKey must be meta, metadata or both');
	});

	it('refuses a bad flag with exit code 2 and the usage', async () => {
		const error: Error = await spawnMockCli(['--fault-rate', 'lots']).then(
			() => new Error('started'),
			(e: Error) => e,
		);
		expect(error.message).toContain('exited with 2');
		expect(error.message).toContain('--fault-rate must be a number');
		expect(error.message).toContain('Usage: npm run mock');
	});

	it('runs as `npm run mock` and stops on Ctrl-C (SIGINT to its process group)', async () => {
		const port = await freePort();
		const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
		const child = spawn('npm', ['run', '--silent', 'mock', '--', '--port', String(port)], {
			cwd: ROOT,
			env,
			stdio: ['ignore', 'pipe', 'ignore'],
			detached: true,
		});
		let out = '';
		child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
		try {
			await waitFor('the ready line', () => (out.includes('\n') ? true : undefined), 20_000, 100);
			expect(out).toBe(`Content Moderation mock service listening on http://127.0.0.1:${port} (token: test-token)\n`);
			expect((await call(`http://127.0.0.1:${port}`, 'GET', '/image/00000000-0000-4000-8000-000000000000')).status).toBe(404);
			process.kill(-child.pid!, 'SIGINT');
			await waitFor('the process group to exit', () => (groupAlive(child.pid!) ? undefined : true), 10_000, 100);
		} finally {
			if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
		}
	});
});
