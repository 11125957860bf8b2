/**
 * What the trigger's webhook() costs before n8n can answer a callback, in process (n8n-core's real
 * WebhookContext, the engine harness's credentials, the mock service): a measurement, not a test.
 *   ACK_CALLS=200 npx jest --testMatch '<rootDir>/test/nodes/ContentModeration/trigger/webhook.ackTimings.measure.ts'
 * (named .measure.ts so that `npm test` does not run it).
 * Prints median / p95 / max of webhook() per scenario. In real n8n the credential read is a database
 * read plus decryption (the harness decrypts in memory), so that line is a lower bound there.
 */
import { randomUUID } from 'node:crypto';

import { startMockService } from '@dev/mock/server';
import { deliveries } from '@package/nodes/ContentModeration/inbound/deliveries';
import { postCallback, startTriggerServer, type TriggerServer } from '@test/helpers/webhook-server';

const SECRET = 'ack-timings-secret';
const N = Number(process.env.ACK_CALLS ?? 200);

function result(id = randomUUID()) {
	return {
		id,
		isSafe: true,
		confidence: 90,
		description: 'a cat',
		summary: { totalFlags: 0, contentRating: 'G', language: 'en', profanity: false },
		riskScores: { overall: 3 },
		topics: [],
		nsfwCategories: [],
		suggestedActions: { reject: false, review: false },
		hash: 'h',
		meta: { n: 1 },
	};
}

function stats(values: number[]): string {
	const sorted = [...values].sort((a, b) => a - b);
	const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)].toFixed(2);
	return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
}

const lines: string[] = [];

async function measure(label: string, server: TriggerServer, body: () => unknown, query?: Record<string, string>) {
	const from = server.calls.length;
	for (let i = 0; i < N; i++) await postCallback(server.webhookUrl, body(), { query });
	const ms = server.calls.slice(from).map((c) => c.webhookMs ?? NaN);
	lines.push(`${label.padEnd(62)} ${stats(ms)}`);
}

async function main() {
	const mock = await startMockService({ processMs: 0 });
	const slow = await startMockService({ processMs: 0, latencyMs: 50 });
	const servers: TriggerServer[] = [];
	const start = async (withCredential: boolean, baseUrl = mock.url) => {
		const server = await startTriggerServer({
			parameters: {},
			credentials: withCredential ? { baseUrl, accessToken: mock.token, callbackSecret: SECRET } : undefined,
		});
		servers.push(server);
		return server;
	};
	// Ids the mock knows, for the full-result reads.
	const known: string[] = [];
	for (const service of [mock, slow]) {
		for (let i = 0; i < 3; i++) {
			const res = await fetch(`${service.url}/image`, {
				method: 'POST',
				headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ image: 'https://images.example.com/a.jpg', options: { defer: true } }),
			});
			known.push(((await res.json()) as { id: string }).id);
		}
	}
	await new Promise((resolve) => setTimeout(resolve, 200));
	const token = { token: SECRET };
	const envelope = () => ({ event: 'moderation.completed', data: result() });

	const bare = await start(false);
	await measure('no credential: parse, key, claim, redact', bare, envelope);
	const withSecret = await start(true);
	await measure('credential with Callback Secret: + credential read, check', withSecret, envelope, token);
	let k = 0;
	await measure('credential, flat {id}: + GET /image/{id}, mock at 0 ms', withSecret, () => {
		deliveries.clear();
		return { id: known[k++ % 3] };
	}, token);
	const slowServer = await start(true, slow.url);
	await measure('credential, flat {id}: + GET /image/{id}, mock at 50 ms', slowServer, () => {
		deliveries.clear();
		return { id: known[3 + (k++ % 3)] };
	}, token);
	const same = envelope();
	await measure('credential: a duplicate (answered, nothing started)', withSecret, () => same, token);

	await Promise.all(servers.map(async (s) => await s.stop()));
	await mock.stop();
	await slow.stop();
}

test('webhook() timings', async () => {
	await main();
	process.stdout.write(`${lines.join('\n')}\n`);
}, 300_000);
